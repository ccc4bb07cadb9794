import Foundation
import QuireDomain
import QuireSQLite

// MARK: - What a list may sort by

extension NotesDatabase {
    /// When each live note was created on this device (or first arrived here), by id.
    /// - Throws: `SQLiteError` when the database cannot be read.
    public func creationTimes() throws -> [NoteID: Date] {
        let rows = try connection.query("SELECT id, created_at FROM notes WHERE deleted = 0") { row in
            (NoteID(row.text(0)), Date(timeIntervalSinceReferenceDate: row.optionalDouble(1) ?? 0))
        }
        return Dictionary(
            rows.compactMap { id, date in id.map { ($0, date) } }, uniquingKeysWith: { first, _ in first })
    }
}
