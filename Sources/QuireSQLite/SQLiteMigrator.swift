import Foundation

/// Brings a database's schema up to date, one numbered migration at a time.
///
/// Migration `n` (1-based, its index in `migrations` plus one) runs when `PRAGMA user_version` is
/// below `n`; each runs in its own transaction together with the version bump, so a crash leaves the
/// file at the last migration that completed. A file from a newer app version (its user_version above
/// the count) is refused rather than guessed at.
public struct SQLiteMigrator {
    public typealias Migration = (SQLiteConnection) throws -> Void

    public let migrations: [Migration]

    public init(_ migrations: [Migration]) {
        self.migrations = migrations
    }

    /// Runs every migration the file has not had yet. Throws the first migration error, or
    /// ``SQLiteError`` with code 0 when the file is newer than this code.
    public func migrate(_ connection: SQLiteConnection) throws {
        let current = try connection.userVersion()
        guard current <= migrations.count else {
            throw SQLiteError(
                code: 0,
                message: "database schema version \(current) is newer than this program "
                    + "(\(migrations.count)); upgrade Quire to open it", sql: nil)
        }
        for index in current..<migrations.count {
            try connection.transaction {
                // Another process opening the same file may have run it since the read above: the
                // version read inside this write transaction is the one that counts.
                guard try connection.userVersion() == index else { return }
                try migrations[index](connection)
                try connection.setUserVersion(index + 1)
            }
        }
    }
}
