import Foundation
import QuireDomain

/// The conflicts for the conflict screen, from the device's database: a copy and its original,
/// each with the device that typed its text, and the user's settlement as one synced change.
public struct LocalNoteConflictsRepository: NoteConflictsRepository {
    private let database: NotesDatabase

    public init(database: NotesDatabase) {
        self.database = database
    }

    /// The copy and its original when `id` is a copy; the note and its first live copy (newest
    /// first, as the list orders them) when `id` has one; nil otherwise. Reads the notes by id,
    /// and the copies by the conflict index.
    public func conflict(involving id: NoteID) async throws -> NoteConflict? {
        guard let row = try await database.noteRow(id: id) else { return nil }
        if let originalID = row.conflictOf {
            let original = try await database.noteRow(id: originalID)
            return NoteConflict(original: original.map(Self.version), copy: Self.version(row))
        }
        guard let copy = try await database.conflictCopyRows(of: id).first else { return nil }
        return NoteConflict(original: Self.version(row), copy: Self.version(copy))
    }

    /// Settles the conflict of `copy` (see ``NotesDatabase/resolveConflict(copy:keep:)``).
    public func resolve(copy: NoteID, keep choice: ConflictChoice) async throws {
        try await database.resolveConflict(copy: copy, keep: choice)
    }

    private static func version(_ record: NoteRecord) -> NoteConflict.Version {
        NoteConflict.Version(note: LocalNotesRepository.note(record), typedOn: record.typedOn)
    }
}
