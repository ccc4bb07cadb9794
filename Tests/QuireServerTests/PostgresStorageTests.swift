import Foundation
import QuirePostgres
import QuireTestSupport
import QuireWire
import Testing

@testable import QuireServer

/// What only the PostgreSQL store has: instances sharing one database, its migrations, and the
/// routes it does not serve yet.
struct PostgresStorageTests {
    @Test func instancesStartingAtOnceMigrateExactlyOnce() async throws {
        // Given an empty database and four instances starting together.
        let connectionString = try await PostgresTestCluster.freshDatabase()

        let stores = try await withThrowingTaskGroup(of: PostgresServerStorage.self) { group in
            for _ in 0..<4 { group.addTask { try await PostgresServerStorage.connect(connectionString) } }
            var stores: [PostgresServerStorage] = []
            for try await store in group { stores.append(store) }
            return stores
        }

        // Then each migration ran once, and all share the one kdf secret it made.
        let db = try PostgresConnection(connectionString)
        let versions = try db.queryAll("SELECT version FROM schema_migrations ORDER BY version") { try $0.int(0) }
        #expect(versions == Array(1...PostgresServerStorage.migrations.count))
        var secrets: Set<Data> = []
        for store in stores { secrets.insert(try await store.serverSecret()) }
        #expect(secrets.count == 1)
        for store in stores { await store.close() }
    }

    @Test func aDatabaseFromANewerServerIsRefusedWithWhatToDo() async throws {
        let connectionString = try await PostgresTestCluster.freshDatabase()
        let first = try await PostgresServerStorage.connect(connectionString)
        await first.close()
        let db = try PostgresConnection(connectionString)
        try db.query("INSERT INTO schema_migrations (version) VALUES ($1)", PostgresServerStorage.migrations.count + 1)

        let error = await #expect(throws: PostgresSchemaError.self) {
            try await PostgresServerStorage.connect(connectionString)
        }
        #expect(error?.description.contains("newer quire-server") == true)
    }

    @Test func notesAreHashPartitionedByAccount() async throws {
        let harness = try await ServerHarness(store: .postgres)
        let token = try await harness.token("ann")
        #expect(await harness.put(ServerHarness.uuid(), payload: "p", base: nil, token: token).status == 200)
        let db = try PostgresConnection(try #require(harness.postgresConnectionString))
        let parts = try db.queryFirst(
            "SELECT count(*) FROM pg_inherits WHERE inhparent = 'notes'::regclass"
        ) { try $0.int(0) }
        #expect(parts == PostgresServerStorage.partitions)
    }

    @Test func aSessionMadeOnOneInstanceWorksOnAnother() async throws {
        let harness = try await ServerHarness(store: .postgres)
        let other = try await harness.secondInstance()
        let token = try await harness.token("ann")
        let id = ServerHarness.uuid()
        #expect(await harness.put(id, payload: "p1", base: nil, token: token).status == 200)

        let response = await other.handle(
            HTTPRequest(
                method: "GET", path: WireRoutes.changes, headers: ["Authorization": "Bearer \(token)"]))

        #expect(response.status == 200)
        let page = try response.decoded(ChangesPageDTO.self)
        #expect(page.changes.map(\.id) == [id])
    }

    @Test func aTripWrittenThroughOneInstanceIsReadThroughAnother() async throws {
        let harness = try await ServerHarness(store: .postgres)
        let other = try await harness.secondInstance()
        let token = try await harness.token("ann")
        let trip = try await harness.newTrip(token: token)
        _ = try await harness.ops(trip, [TripValue.op(nil, "title", "Lisbon")], token: token)

        let response = await other.handle(
            HTTPRequest(
                method: "GET", path: WireRoutes.trip(trip), headers: ["Authorization": "Bearer \(token)"]))

        #expect(response.status == 200)
        let snapshot = try response.decoded(TripSnapshotDTO.self)
        #expect(snapshot.trip.revision == 1)
        #expect(snapshot.fields.map(\.value) == [TripValue.sealed("Lisbon")])
    }
}
