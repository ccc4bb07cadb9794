import Foundation
import QuireClient
import QuireSQLite
import QuireTestSupport
import Testing

/// Opening the trips file: a new one gets the whole schema, reopening keeps everything, and a
/// file from a newer version is refused rather than guessed at.
@Suite struct TripsSchemaMigrationTests {
    @Test func aNewFileIsAtTheLatestSchemaVersionWithEveryTable() throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        _ = try fixture.open()

        let check = try SQLiteConnection(path: fixture.fileURL.path)
        #expect(try check.userVersion() == TripsSchema.migrations.count)
        let tables = try check.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            $0.text(0)
        }
        for table in ["conflicts", "fields", "items", "meta", "outbox", "sync_state", "trips"] {
            #expect(tables.contains(table))
        }
    }

    @Test func migratingTwiceChangesNothingAndKeepsTheRows() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let trip = try await fixture.open().createTrip(title: "Lisbon")
        try SQLiteMigrator(TripsSchema.migrations).migrate(SQLiteConnection(path: fixture.fileURL.path))

        let reopened = try fixture.open()
        #expect(try await reopened.trips().map(\.id) == [trip])
        #expect(try await reopened.statusRowNow().pendingCount == 1)
    }

    @Test func aFileFromANewerVersionIsRefused() throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        _ = try fixture.open()
        try SQLiteConnection(path: fixture.fileURL.path).setUserVersion(TripsSchema.migrations.count + 1)

        #expect(throws: SQLiteError.self) { try fixture.open() }
    }
}
