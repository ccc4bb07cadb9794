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

    /// Up to `limit` live notes as summary rows right after `position` in the list's order, from
    /// the start when nil. Reads only those rows: the index is entered at `position` (a range on
    /// `updated_at`), not scanned from the start.
    /// - Throws: `SQLiteError` when the database cannot be read.
    public func noteSummaryRows(after position: NoteListPosition?, limit: Int) throws -> [NoteRecord] {
        let select = Self.noteRowsSelect(body: "n.preview")
        guard let position else {
            return try connection.query(
                select + " WHERE n.deleted = 0" + Self.listOrder + " LIMIT ?", bindings: [limit],
                map: Self.noteRecord)
        }
        let updatedAt = position.updatedAt.timeIntervalSinceReferenceDate
        return try connection.query(
            select + " WHERE n.deleted = 0 AND n.updated_at <= ?1 AND (n.updated_at < ?1 OR n.id > ?2)"
                + Self.listOrder + " LIMIT ?3",
            bindings: [updatedAt, position.id.description, limit], map: Self.noteRecord)
    }
}
