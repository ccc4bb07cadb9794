import Foundation
import QuireDomain
import QuireSQLite

// MARK: - A note's conflict copies

extension NotesDatabase {
    /// The live copies of the note bound to `?`, by `notes_by_conflict_of` (named, as in
    /// ``noteRowsSelect``), in the list's order.
    static let conflictCopiesQuery =
        noteRowsSelect
            + """
             INDEXED BY notes_by_conflict_of
            WHERE n.conflict_of IS NOT NULL AND n.conflict_of = ? AND n.deleted = 0
            """ + listOrder

    /// The live conflict copies of note `id`, newest first, each whole with its sync facts: only
    /// the copies' rows are read, whatever the number of notes and wherever the copies sit in
    /// the list.
    /// - Throws: `SQLiteError` when the database cannot be read.
    public func conflictCopyRows(of id: NoteID) throws -> [NoteRecord] {
        try connection.query(Self.conflictCopiesQuery, bindings: [id.description], map: Self.noteRecord)
    }
}
