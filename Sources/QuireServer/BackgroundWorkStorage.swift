import Foundation

/// The storage side of the server's background work: each kind in bounded batches (one short
/// transaction each, so writes go on between them), and a pass that runs on one instance at a
/// time.
///
/// ``PostgresServerStorage`` holds a PostgreSQL advisory lock for the pass, on a connection of
/// its own; ``SQLiteServerStorage`` is one process's file, so the process is the one instance
/// (the server keeps its own passes from overlapping).
public protocol BackgroundWorkStorage: Sendable {
    /// Runs `pass` while this instance holds the store's background-work lock, and returns its
    /// result; returns nil at once, without running it, when another instance holds the lock.
    /// The lock is let go when `pass` ends, throws, or the instance dies. Correctness never
    /// rests on it (every batch is a transaction of its own that any instance could run); it
    /// keeps instances from doing the same work twice.
    func runAlone<T: Sendable>(_ pass: @Sendable () async throws -> T) async throws -> T?

    /// One batch of ``RetentionQueries/purgeBatch(olderThan:limit:db:)``: up to `limit`
    /// tombstones changed before `cutoff`, and as many idempotency records and marks.
    func purgeTombstoneBatch(olderThan cutoff: Date, limit: Int) async throws -> PurgeBatch

    /// Deletes up to `limit` sessions that are over: revoked ones whose access token expired
    /// before `cutoff`, and those `expiry` says have ended (see
    /// ``SessionQueries/deleteEnded(revokedBefore:expiry:limit:db:)``); returns how many.
    func deleteEndedSessions(revokedBefore cutoff: Date, expiry: SessionExpiry, limit: Int) async throws
        -> Int
}
