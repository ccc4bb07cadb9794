import Foundation
import QuireSQLite
import Testing

@testable import QuireServer

/// Migration 18 (`trips.value_bytes`, which ``TripQuota`` bounds) counts the values of trips an
/// upgraded server already holds, member entries excepted.
struct TripBytesMigrationTests {
    @Test func anUpgradedServerCountsItsTripsBytesOnce() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("quire-server-trip-bytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try SQLiteConnection(path: directory.appendingPathComponent("server.sqlite").path)
        let migrations = SQLiteServerStorage.migrator.migrations
        try SQLiteMigrator(Array(migrations.prefix(17))).migrate(db)
        try db.run("INSERT INTO trips (trip_id, revision, seq, created_at) VALUES ('t1', 3, 1, 0), ('t2', 0, 2, 0)")
        let fields = [("title", "abcdefghij"), ("notes", "0123456789012345"), ("member.7", "long entry")]
        for (revision, (field, value)) in fields.enumerated() {
            try db.run(
                """
                INSERT INTO trip_fields (trip_id, item_id, field, value, revision, seq, updated_at)
                VALUES ('t1', '', ?, ?, ?, 1, 0)
                """, field, value, revision + 1)
        }

        try SQLiteMigrator(migrations).migrate(db)

        let bytes = try db.query("SELECT trip_id, value_bytes FROM trips ORDER BY trip_id") {
            "\($0.text(0))=\($0.int64(1))"
        }
        #expect(bytes == ["t1=26", "t2=0"])
    }
}
