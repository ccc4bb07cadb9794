import Foundation
import QuireSQLite

extension NotesSchema {
    // MARK: - 12: the status row's counts from indexes

    /// The status row counts pending changes, the refused and stuck ones, and finds the oldest.
    /// A pending change holds its note's whole text, so on a device that typed 100,000 notes
    /// offline a scan of the table reads 200 MB; the list screen waits behind that read (the
    /// database has one connection) and opened in 740 ms. These indexes answer each count and
    /// the oldest time from a few pages.
    static func indexPendingChangesForStatus(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE INDEX pending_changes_by_age ON pending_changes (created_at);
            CREATE INDEX pending_changes_by_state ON pending_changes (refused, attempts);
            """)
    }
}
