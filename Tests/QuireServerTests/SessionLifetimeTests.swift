import Foundation
import QuirePostgres
import QuireSQLite
import QuireTestSupport
import QuireWire
import Testing

@testable import QuireServer

/// Sessions end: after their idle lifetime without a refresh, and at their absolute lifetime in
/// use or not; the background work deletes them in bounded batches. On both stores.
struct SessionLifetimeTests {
    /// Idle one day, absolute three days, background batches of two.
    static let configuration: NotesServerConfiguration = {
        var configuration = ServerHarness.configuration
        configuration.sessionLifetime = SessionLifetime(idle: 86_400, absolute: 3 * 86_400)
        configuration.backgroundBatchSize = 2
        return configuration
    }()

    private func harness(_ store: StoreKind) async throws -> ServerHarness {
        try await ServerHarness(store: store, configuration: Self.configuration)
    }

    @Test(arguments: StoreKind.allCases) func refreshAfterTheIdleLifetimeIsRefused(store: StoreKind) async throws {
        let harness = try await harness(store)
        let session = try await harness.session("ada")
        harness.clock.advance(by: 86_400 - 1)
        let refreshed = try await harness.refresh(session.refreshToken).decoded(SessionDTO.self)

        harness.clock.advance(by: 86_400 + 1)
        let late = await harness.refresh(refreshed.refreshToken)

        #expect(late.status == 401)
        #expect(late.errorCode == "invalid_refresh_token")
        #expect(await harness.changesResponse(token: refreshed.accessToken).status == 401)
    }

    @Test(arguments: StoreKind.allCases) func useKeepsASessionPastItsIdleLifetime(store: StoreKind) async throws {
        let harness = try await harness(store)
        var session = try await harness.session("ada")

        for _ in 0..<3 {
            harness.clock.advance(by: 0.75 * 86_400)
            let response = await harness.refresh(session.refreshToken)
            try #require(response.status == 200, "refresh answered \(response.status): \(response.text)")
            session = try response.decoded(SessionDTO.self)
        }

        #expect(await harness.changesResponse(token: session.accessToken).status == 200)
    }

    @Test(arguments: StoreKind.allCases) func theAbsoluteLifetimeEndsASessionInUse(store: StoreKind) async throws {
        let harness = try await harness(store)
        var session = try await harness.session("ada")
        for _ in 0..<3 {
            harness.clock.advance(by: 86_400 - 60)
            session = try await harness.refresh(session.refreshToken).decoded(SessionDTO.self)
        }
        // 180 s before the end: the access token works, then not past the end, though it has
        // not expired yet.
        #expect(await harness.changesResponse(token: session.accessToken).status == 200)

        harness.clock.advance(by: 181)

        let request = await harness.changesResponse(token: session.accessToken)
        #expect(request.status == 401)
        #expect(request.errorCode == "unauthorized")
        #expect(await harness.refresh(session.refreshToken).errorCode == "invalid_refresh_token")
        #expect(try await harness.session("ada").accessToken.isEmpty == false)
    }

    @Test(arguments: StoreKind.allCases) func backgroundWorkDeletesEndedSessionsInBatches(store: StoreKind) async throws
    {
        let harness = try await harness(store)
        for device in 0..<5 { _ = try await harness.session("ada", device: "old \(device)") }
        harness.clock.advance(by: 86_400 + 1)
        let fresh = try await harness.session("ada", device: "new")

        let report = try #require(
            try await harness.server.runBackgroundWork(olderThan: harness.clock.now.addingTimeInterval(-30 * 86_400)))

        #expect(report.sessions == 5)
        #expect(report.largestBatch <= 2)
        let list = try await harness.sessionList(fresh.accessToken)
        #expect(list.sessions.map(\.deviceName) == ["new"])
        #expect(await harness.changesResponse(token: fresh.accessToken).status == 200)
        let again = try #require(
            try await harness.server.runBackgroundWork(olderThan: harness.clock.now.addingTimeInterval(-30 * 86_400)))
        #expect(again.sessions == 0)
    }
}

/// SQLite's migration 14 counts a session from before it as used when its access token was
/// issued: one in use keeps working after the upgrade, one idle for longer than the idle
/// lifetime has ended.
struct SessionUseMigrationTests {
    @Test func sessionsFromBeforeTheMigrationKeepTheirLastUse() async throws {
        let harness = try ServerHarness()
        let path = harness.directory.appendingPathComponent("v13.sqlite").path
        let db = try SQLiteConnection(path: path)
        try SQLiteMigrator(Array(SQLiteServerStorage.migrator.migrations.prefix(13))).migrate(db)
        try db.insertAccountAda()
        let now = Date()
        for (name, lastRefresh) in [("in use", now), ("put away", now.addingTimeInterval(-61 * 86_400))] {
            try db.run(
                """
                INSERT INTO sessions (account_id, device_name, access_hash, access_expires_at,
                    refresh_hash, created_at)
                VALUES (1, ?, ?, ?, ?, ?)
                """, name, "access \(name)", lastRefresh.addingTimeInterval(900).storedMilliseconds,
                NotesServer.tokenHash(name), now.addingTimeInterval(-100 * 86_400).storedMilliseconds)
        }

        let server = try NotesServer.sqlite(path: path, configuration: ServerHarness.configuration, log: { _ in })
        #expect(await Self.refreshStatuses(server) == [200, 401])
    }

    /// The statuses of refreshing the two sessions the tests write ("in use", "put away",
    /// whose refresh tokens are their names); shuts `server` down.
    static func refreshStatuses(_ server: NotesServer) async -> [Int] {
        var statuses: [Int] = []
        for name in ["in use", "put away"] {
            let response = await server.handle(
                HTTPRequest(
                    method: "POST", path: WireRoutes.refreshSession,
                    body: WireJSON.encode(RefreshSessionRequestDTO(refreshToken: name))))
            statuses.append(response.status)
        }
        await server.shutDown()
        return statuses
    }

    /// The same on PostgreSQL, whose migration 5 adds the column.
    @Test func postgresSessionsFromBeforeTheMigrationKeepTheirLastUse() async throws {
        let connectionString = try await PostgresTestCluster.freshDatabase()
        let db = try PostgresConnection.migrated(connectionString, through: 4)
        try db.insertAccountAda()
        let now = Date()
        for (name, lastRefresh) in [("in use", now), ("put away", now.addingTimeInterval(-61 * 86_400))] {
            try db.query(
                """
                INSERT INTO sessions (account_id, device_name, access_hash, access_expires_at,
                    refresh_hash, created_at)
                VALUES (1, $1, $2, $3, $4, $5)
                """, name, "access \(name)", lastRefresh.addingTimeInterval(900).storedMilliseconds,
                NotesServer.tokenHash(name), now.addingTimeInterval(-100 * 86_400).storedMilliseconds)
        }

        let server = NotesServer(
            storage: try await PostgresServerStorage.connect(connectionString),
            configuration: ServerHarness.configuration, log: { _ in })
        #expect(await Self.refreshStatuses(server) == [200, 401])
    }
}
