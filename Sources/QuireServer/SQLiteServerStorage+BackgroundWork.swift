import Foundation

/// Background work in the SQLite store: one batch a transaction of the file's one writer, so
/// a write waits at most one batch.
extension SQLiteServerStorage: BackgroundWorkStorage {
    /// Runs `pass` at once: one process owns the file, so it is the only instance.
    public nonisolated func runAlone<T: Sendable>(_ pass: @Sendable () async throws -> T) async throws -> T? {
        try await pass()
    }

    public func purgeTombstoneBatch(olderThan cutoff: Date, limit: Int) throws -> PurgeBatch {
        let db = try open()
        return try db.transaction { try RetentionQueries.purgeBatch(olderThan: cutoff, limit: limit, db: db) }
    }

    public func deleteEndedSessions(revokedBefore cutoff: Date, expiry: SessionExpiry, limit: Int) throws
        -> Int
    {
        let db = try open()
        return try db.transaction {
            try SessionQueries.deleteEnded(revokedBefore: cutoff, expiry: expiry, limit: limit, db: db)
        }
    }
}
