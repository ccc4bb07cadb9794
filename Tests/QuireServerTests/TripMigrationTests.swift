import Foundation
import QuireSQLite
import QuireWire
import Testing

@testable import QuireServer

/// Migration 7 (trips) on a database of the previous schema version, with an account, a
/// session and a note in it.
struct TripMigrationTests {
    let directory: URL
    let path: String
    let token = "session-from-before-trips"

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("quire-server-trip-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("server.sqlite").path
        let db = try SQLiteConnection(path: path)
        // Schema 6, the last before trips.
        try SQLiteMigrator(Array(SQLiteServerStorage.migrator.migrations.prefix(6))).migrate(db)
        try db.run(
            "INSERT INTO accounts (id, username, created_at, public_id) VALUES (1, 'old', 0, 'p')")
        try db.run(
            """
            INSERT INTO sessions (account_id, device_name, access_hash, access_expires_at,
                refresh_hash, created_at)
            VALUES (1, 'laptop', ?, ?, 'refresh', ?)
            """, NotesServer.tokenHash(token), Int64(4_000_000_000_000),
            // Signed in now: a session from 1970 is past its absolute lifetime (SessionLifetime).
            Date().storedMilliseconds)
        try db.run("UPDATE meta SET value = 1 WHERE key = 'seq'")
        try db.run(
            """
            INSERT INTO notes (account_id, note_id, version, payload, updated_at, seq)
            VALUES (1, '8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a', 1, 'kept', 0, 1)
            """)
    }

    @Test func anExistingDatabaseGainsTripsAndKeepsItsNotes() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try NotesServer.sqlite(
            path: path, configuration: ServerHarness.configuration, log: { _ in })
        let auth = ["Authorization": "Bearer \(token)"]
        let trip = ServerHarness.uuid()

        let notes = try await server.handle(
            HTTPRequest(method: "GET", path: WireRoutes.changes, headers: auth)
        ).decoded(ChangesPageDTO.self)
        let created = await server.handle(
            HTTPRequest(
                method: "PUT", path: WireRoutes.trip(trip), headers: auth,
                body: WireJSON.encode(CreateTripRequestDTO(wrappedKey: TripValue.wrappedKey))))
        let ops = try await server.handle(
            HTTPRequest(
                method: "POST", path: WireRoutes.tripOps(trip), headers: auth,
                body: WireJSON.encode(
                    TripOpsRequestDTO(
                        opId: ServerHarness.uuid(), ops: [TripValue.op(nil, "title", "Lisbon")])))
        ).decoded(TripOpsResponseDTO.self)
        let feed = try await server.handle(
            HTTPRequest(method: "GET", path: WireRoutes.trips, headers: auth)
        ).decoded(TripsFeedPageDTO.self)
        await server.shutDown()

        #expect(notes.changes.map(\.payload) == ["kept"])
        #expect(created.status == 201)
        #expect(ops.results == [TripOpResultDTO(status: .applied, revision: 1)])
        #expect(feed.trips.map(\.id) == [trip])
        let db = try SQLiteConnection(path: path)
        #expect(try db.userVersion() == SQLiteServerStorage.migrator.migrations.count)
        #expect(try db.queryFirst("SELECT COUNT(*) FROM trip_members") { $0.int(0) } == 1)
        // Creating the trip and its first ops took the next numbers of the server-wide sequence.
        #expect(try db.queryFirst("SELECT value FROM meta WHERE key = 'seq'") { $0.int64(0) } == 3)
    }
}
