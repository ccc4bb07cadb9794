import Foundation
import QuireDomain
import QuireSQLite

// MARK: - The list a screen at a time

extension NotesDatabase {
    /// The live notes' order, which the list index `notes_list` (migration 5) holds, so a
    /// `LIMIT` stops after the rows it returns instead of sorting every note first.
    static let listOrder = " ORDER BY n.updated_at DESC, n.id"

    /// The first `count` + 1 live notes as summary rows: the window's stream value.
    package func readNoteSummaryRows(first count: Int) throws -> [NoteRecord] {
        try connection.query(
            Self.noteRowsSelect(body: "n.preview") + " WHERE n.deleted = 0" + Self.listOrder + " LIMIT ?",
            bindings: [count + 1], map: Self.noteRecord)
    }
}
