import Foundation
import QuireDomain

/// A `NoteHistoryRepository` holding one note's history and a trash; records the reads and
/// restores and can fail them.
///
/// `@unchecked Sendable`: every stored property is read and written only while holding `lock`.
final class FakeNoteHistory: NoteHistoryRepository, @unchecked Sendable {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "the disk is full" }
    }

    private let lock = NSLock()
    private var held: NoteHistory
    private var trashed: NoteTrash
    private var reads = 0
    private var restores: [String] = []
    private var fromTrash: [NoteID] = []
    private var failing = false

    init(_ history: NoteHistory = NoteHistory(versions: []), trash: NoteTrash = NoteTrash(notes: [])) {
        held = history
        trashed = trash
    }

    var readCount: Int { lock.withLock { reads } }
    var restored: [String] { lock.withLock { restores } }
    var restoredFromTrash: [NoteID] { lock.withLock { fromTrash } }

    func fail(_ value: Bool = true) { lock.withLock { failing = value } }

    func history(of id: NoteID) async throws -> NoteHistory {
        try lock.withLock {
            reads += 1
            if failing { throw Refused() }
            return held
        }
    }

    /// Restoring makes that version's text current, as a new version on top.
    func restore(_ id: NoteID, version reference: String) async throws -> Bool {
        try lock.withLock {
            if failing { throw Refused() }
            guard let version = held.versions.first(where: { $0.reference == reference }) else { return false }
            if held.versions.first(where: \.isCurrent)?.text == version.text { return false }
            restores.append(reference)
            let top = (held.versions.compactMap { Int($0.reference) }.max() ?? 0) + 1
            held.versions = held.versions.map {
                var old = $0; old.isCurrent = false; return old
            }
            held.versions.append(
                NoteHistoryVersion(
                    reference: String(top), savedAt: Harness.now, text: version.text, typedOn: nil, isCurrent: true))
            return true
        }
    }

    func trash() async throws -> NoteTrash {
        try lock.withLock {
            reads += 1
            if failing { throw Refused() }
            return trashed
        }
    }

    func restoreFromTrash(_ id: NoteID) async throws {
        try lock.withLock {
            if failing { throw Refused() }
            fromTrash.append(id)
            trashed.notes.removeAll { $0.id == id }
        }
    }
}
