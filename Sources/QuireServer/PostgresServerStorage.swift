import Foundation
import QuireLock
import QuirePostgres

/// ``ServerStorage`` in a PostgreSQL database, for deployments that outgrow one machine: any
/// number of server instances may share one database.
///
/// Each instance keeps a small pool of connections (``PostgresPool``); every method is one
/// transaction that rolls back when anything in it throws (run again, whole, when PostgreSQL
/// aborts it as a serialization failure or deadlock). Times are stored as milliseconds since
/// 1970, as in ``SQLiteServerStorage``, whose semantics this store has exactly.
///
/// The feed is commit-ordered per account: every write first locks its account's row
/// (`SELECT … FOR UPDATE`) and only then takes its number from the `feed_seq` sequence, so one
/// account's writers take their numbers one after another, each after the previous one
/// committed. A reader that saw an account's change `n` has therefore seen every change of that
/// account below `n`: no commit can land below its cursor later. (A bare sequence would not do:
/// its value is taken at insert, and a transaction holding 100 may commit after a reader saw
/// 101.) Numbers still come from one server-wide sequence, so cursors keep their meaning, and a
/// rolled-back write leaves a gap no reader waits for.
///
/// Trips are kept here too (``TripStorage``, the statements of ``TripQueries``): an ops request
/// locks its trip's row, then its members' account rows, before it takes its number, so a trip's
/// revisions stay gap-free and unique and the trips feed is commit-ordered the same way.
///
/// Every write that changes a feed also sends `NOTIFY` in its transaction (so it is delivered
/// only if it commits), and each instance listens on a connection of its own to wake its
/// long-polls (see ``ChangeBroadcastingStorage`` and `PostgresServerStorage+LiveUpdates.swift`).
public final class PostgresServerStorage: ServerStorage {
    private let pool: PostgresPool
    let closed = Locked(false)
    let connectionString: String
    /// Whether writes announce their changes and ``startChangeListener(delivering:)`` listens.
    let changeNotifications: Bool
    /// The instance's `LISTEN` connection, once a server asked for live updates.
    let listener = Locked<PostgresListener?>(nil)

    /// Connects to `connectionString` (a libpq URI such as `postgres://user@host:5432/db`, or
    /// keyword/value parameters; a password from `PGPASSWORD` or `~/.pgpass`) with a pool of
    /// `poolSize` connections, and brings the schema up to date: instances starting at once
    /// migrate it exactly once (see ``migrate(_:)``). `changeNotifications` false turns
    /// `LISTEN`/`NOTIFY` off (for a connection pooler that cannot carry them): other instances'
    /// changes then reach long-polls at their periodic re-check.
    ///
    /// Throws ``PostgresError`` when the database cannot be reached or migrated, and
    /// ``PostgresSchemaError`` when it comes from a newer version of the server.
    public init(connectionString: String, poolSize: Int = 4, changeNotifications: Bool = true) throws {
        let pool = try PostgresPool(connectionString, size: poolSize)
        let connection = try PostgresConnection(connectionString)
        try Self.migrate(connection)
        self.pool = pool
        self.connectionString = connectionString
        self.changeNotifications = changeNotifications
    }

    /// ``init(connectionString:poolSize:changeNotifications:)`` on a thread of its own, for async
    /// callers: connecting and migrating block until the server answers.
    public static func connect(_ connectionString: String, poolSize: Int = 4, changeNotifications: Bool = true)
        async throws -> PostgresServerStorage
    {
        try await onOwnThread {
            try PostgresServerStorage(
                connectionString: connectionString, poolSize: poolSize, changeNotifications: changeNotifications)
        }
    }

    public func close() async {
        closed.withLock { $0 = true }
        listener.withLock { listener in
            listener?.stop()
            listener = nil
        }
        pool.close()
    }

    // MARK: - Internals

    /// Runs `work` as one transaction on a pooled connection. Throws
    /// ``ServerStorageError/closed`` once the store is closed.
    func transaction<T: Sendable>(
        _ isolation: PostgresConnection.Isolation = .readCommitted,
        _ work: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        if closed.withLock({ $0 }) { throw ServerStorageError.closed }
        do {
            return try await pool.transaction(isolation, work)
        } catch let error as PostgresError where error == .closed {
            throw ServerStorageError.closed
        }
    }

    /// The row of a `notes` query selecting ``noteColumns``.
    static func storedNote(_ row: PostgresRow) throws -> StoredNote {
        StoredNote(
            id: try row.text(0), version: try row.int(1),
            updatedAt: Date(storedMilliseconds: try row.int64(2)), deleted: try row.bool(3),
            payload: try row.optionalText(4), seq: try row.int64(5),
            writer: try row.optionalInt64(6).map { SessionID($0) }, mark: try row.int64(7))
    }

    static let noteColumns = "note_id, version, updated_at, deleted, payload, seq, written_by, mark"
}
