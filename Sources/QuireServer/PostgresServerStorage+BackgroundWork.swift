import Foundation
import QuirePostgres

/// Background work in the PostgreSQL store: one batch a transaction, and a pass under a
/// session-level advisory lock so one instance at a time runs it.
extension PostgresServerStorage: BackgroundWorkStorage {
    /// The advisory lock a background pass holds ("qbgwk" in ASCII).
    static let backgroundLockKey: Int64 = 0x71_62_67_77_6B

    /// Holds `pg_try_advisory_lock(backgroundLockKey)` on a connection opened for the pass (not
    /// a pooled one: the batches run on the pool meanwhile, and a session lock belongs to its
    /// connection). The lock goes with the connection, so an instance that dies mid-pass frees
    /// it at once.
    public func runAlone<T: Sendable>(_ pass: @Sendable () async throws -> T) async throws -> T? {
        let connectionString = self.connectionString
        let key = Self.backgroundLockKey
        let held = try await onOwnThread { () -> PostgresConnection? in
            let db = try PostgresConnection(connectionString)
            let mine = try db.queryFirst("SELECT pg_try_advisory_lock($1)", key) { try $0.bool(0) } ?? false
            return mine ? db : nil
        }
        guard let held else { return nil }
        let result: Result<T, any Error>
        do {
            result = .success(try await pass())
        } catch {
            result = .failure(error)
        }
        // Closing the connection would let the lock go too; unlocking first says so plainly.
        _ = try? await onOwnThread { try held.query("SELECT pg_advisory_unlock($1)", key) }
        return try result.get()
    }

    public func purgeTombstoneBatch(olderThan cutoff: Date, limit: Int) async throws -> PurgeBatch {
        try await transaction { db in try RetentionQueries.purgeBatch(olderThan: cutoff, limit: limit, db: db) }
    }

    public func deleteEndedSessions(revokedBefore cutoff: Date, expiry: SessionExpiry, limit: Int)
        async throws -> Int
    {
        try await transaction { db in
            try SessionQueries.deleteEnded(revokedBefore: cutoff, expiry: expiry, limit: limit, db: db)
        }
    }
}
