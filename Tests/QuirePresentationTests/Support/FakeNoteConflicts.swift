import Foundation
import QuireDomain

/// A `NoteConflictsRepository` holding one conflict; records the choices made and can fail them.
///
/// `@unchecked Sendable`: every stored property is read and written only while holding `lock`.
final class FakeNoteConflicts: NoteConflictsRepository, @unchecked Sendable {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "the disk is full" }
    }

    private let lock = NSLock()
    private var current: NoteConflict?
    private var made: [(NoteID, ConflictChoice)] = []
    private var failing = false

    init(_ conflict: NoteConflict?) {
        current = conflict
    }

    var choices: [ConflictChoice] { lock.withLock { made.map(\.1) } }
    var copies: [NoteID] { lock.withLock { made.map(\.0) } }

    func fail() { lock.withLock { failing = true } }

    func conflict(involving id: NoteID) async throws -> NoteConflict? {
        lock.withLock {
            guard let current, current.copy.note.id == id || current.original?.note.id == id else { return nil }
            return current
        }
    }

    func resolve(copy: NoteID, keep choice: ConflictChoice) async throws {
        try lock.withLock {
            if failing { throw Refused() }
            made.append((copy, choice))
            current = nil
        }
    }
}
