import Foundation
import QuirePostgres
import QuireTestSupport
import Synchronization
import Testing

/// The thin libpq layer against the test process's throwaway cluster.
struct PostgresConnectionTests {
    private func freshConnection() throws -> (PostgresConnection, String) {
        let cluster = try PostgresTestCluster.shared()
        let name = try cluster.createDatabase()
        return (
            try PostgresConnection(cluster.connectionString(database: name)), cluster.connectionString(database: name)
        )
    }

    @Test func parametersRoundTripAsTextNeverAsSQL() throws {
        let (db, _) = try freshConnection()
        try db.execute("CREATE TABLE t (s text, n bigint, b boolean, d bytea, o text)")
        let tricky = "it's'); DROP TABLE t; --"
        let bytes = Data([0, 1, 0x7f, 0x80, 0xff])
        try db.query("INSERT INTO t VALUES ($1, $2, $3, $4, $5)", tricky, Int64.max, true, bytes, nil)
        let row = try #require(try db.query("SELECT s, n, b, d, o FROM t").first)
        #expect(try row.text(0) == tricky)
        #expect(try row.int64(1) == Int64.max)
        #expect(try row.bool(2))
        #expect(try row.bytes(3) == bytes)
        #expect(try row.optionalText(4) == nil)
        #expect(throws: PostgresError.self) { try row.text(4) }
    }

    @Test func affectedRowsCountsChangedRows() throws {
        let (db, _) = try freshConnection()
        try db.execute("CREATE TABLE t (n int); INSERT INTO t SELECT generate_series(1, 5)")
        #expect(try db.query("UPDATE t SET n = n + 1 WHERE n > $1", 2).affectedRows == 3)
    }

    @Test func aUniqueViolationCarriesItsSQLState() throws {
        let (db, _) = try freshConnection()
        try db.execute("CREATE TABLE t (k text PRIMARY KEY)")
        try db.query("INSERT INTO t VALUES ($1)", "a")
        let error = try #require(throws: PostgresError.self) { try db.query("INSERT INTO t VALUES ($1)", "a") }
        #expect(error.sqlState == "23505")
        #expect(error.isUniqueViolation)
        #expect(error.description.contains("INSERT INTO t"))
    }

    @Test func aThrowingTransactionRollsBackAndTheConnectionGoesOn() throws {
        struct Boom: Error {}
        let (db, _) = try freshConnection()
        try db.execute("CREATE TABLE t (n int)")
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.query("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(throws: PostgresError.self) { try db.transaction { try db.query("SELECT * FROM missing") } }
        try db.transaction { _ = try db.query("INSERT INTO t VALUES (2)") }
        #expect(try db.queryAll("SELECT n FROM t") { try $0.int(0) } == [2])
    }

    @Test func aRefusedConnectionSaysWhereAndNeverThePassword() throws {
        let error = try #require(throws: PostgresError.self) {
            try PostgresConnection("postgres://someone:hunter2@127.0.0.1:1/nowhere?connect_timeout=2")
        }
        #expect(error.isConnectionFailure)
        #expect(error.description.contains("127.0.0.1"))
        #expect(!error.description.contains("hunter2"))
    }

    @Test func thePoolLendsEachConnectionToOneCallerAtATime() async throws {
        let (_, connectionString) = try freshConnection()
        let pool = try PostgresPool(connectionString, size: 3)
        let tracker = LendingTracker()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<24 {
                group.addTask {
                    try await pool.withConnection { connection in
                        tracker.lent(ObjectIdentifier(connection))
                        _ = try connection.query("SELECT pg_sleep(0.01)")
                        tracker.returned(ObjectIdentifier(connection))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(tracker.clashes == 0)
        #expect(tracker.distinct <= 3)
        pool.close()
        await #expect(throws: PostgresError.closed) { try await pool.withConnection { _ in 1 } }
    }

    @Test func aTransientAbortIsRunAgain() async throws {
        let (db, connectionString) = try freshConnection()
        try db.execute("CREATE TABLE t (n int)")
        let pool = try PostgresPool(connectionString, size: 1)
        let attempts = LendingTracker()
        try await pool.transaction { connection in
            if attempts.count() == 1 {
                _ = try connection.query("SELECT 1 FROM t")
                try connection.execute(
                    "DO $$ BEGIN RAISE EXCEPTION 'simulated' USING ERRCODE = '40001'; END $$")
            }
            try connection.query("INSERT INTO t VALUES (1)")
        }
        #expect(attempts.count() == 3, "two attempts, then this count")
        #expect(try db.queryAll("SELECT n FROM t") { try $0.int(0) } == [1])
    }
}

/// Which connections are lent right now, and how often two callers held the same one.
private final class LendingTracker: Sendable {
    private struct State {
        var inUse: Set<ObjectIdentifier> = []
        var seen: Set<ObjectIdentifier> = []
        var clashes = 0
        var calls = 0
    }

    private let state = Mutex(State())

    func lent(_ id: ObjectIdentifier) {
        state.withLock {
            if !$0.inUse.insert(id).inserted { $0.clashes += 1 }
            $0.seen.insert(id)
        }
    }

    func returned(_ id: ObjectIdentifier) {
        state.withLock { _ = $0.inUse.remove(id) }
    }

    var clashes: Int { state.withLock { $0.clashes } }
    var distinct: Int { state.withLock { $0.seen.count } }

    /// Counts a call; returns how many there were, this one included.
    func count() -> Int {
        state.withLock {
            $0.calls += 1
            return $0.calls
        }
    }
}

/// The test cluster's own failure, which every PostgreSQL test case shows when PostgreSQL is missing.
struct PostgresTestClusterTests {
    @Test func missingServerProgramsFailWithWhatToRun() throws {
        let error = try #require(throws: PostgresTestClusterError.self) {
            try PostgresTestCluster.binaries(under: "/nonexistent/postgresql")
        }
        #expect(error.description.contains("bash scripts/setup.sh"))
    }
}
