import Foundation
import QuireSQLite

// MARK: - Backups

extension SQLiteServerStorage {
    /// Writes a consistent copy of the whole database to a new file at `path` (`VACUUM INTO`),
    /// while the server keeps serving. Throws when the file exists or cannot be written.
    public func backUp(to path: String) throws {
        _ = try open().run("VACUUM INTO ?", path)
    }

    /// Every note row of the account, tombstones included, in feed order: for checks that read
    /// the server's whole state whatever its purges (the feed answers 410 below a purge).
    package func allNotes(account: AccountID) throws -> [StoredNote] {
        try open().query(
            """
            SELECT note_id, version, updated_at, deleted, payload, seq, written_by, mark FROM notes
            WHERE account_id = ? ORDER BY seq
            """, bindings: [account.rawValue], map: Self.storedNote)
    }

    /// Replaces every row with the rows of the backup at `path`, in one transaction: the server as
    /// an operator's restore of an older backup leaves it, having forgotten every write since.
    /// For tests and the simulation of that restore; the backup must have this file's schema.
    package func restore(fromBackupAt path: String) throws {
        let db = try open()
        _ = try db.run("ATTACH DATABASE ? AS backup", path)
        do {
            try replaceRows(db)
        } catch {
            try db.execute("DETACH DATABASE backup")
            throw error
        }
        try db.execute("DETACH DATABASE backup")
    }

    private func replaceRows(_ db: SQLiteConnection) throws {
        try db.transaction {
            // A DELETE without WHERE may empty a table without SQLite's update hook (it does for
            // a table no foreign key touches): the sessions kept for requests are dropped here,
            // and none is kept again until this commits, whatever the schema.
            sessionCache?.sessionsChanging()
            let tables = try db.query(
                """
                SELECT name FROM backup.sqlite_master
                WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                """, map: { $0.text(0) })
            for table in tables {
                try db.execute(
                    "DELETE FROM main.\"\(table)\"; INSERT INTO main.\"\(table)\" SELECT * FROM backup.\"\(table)\";")
            }
        }
    }
}
