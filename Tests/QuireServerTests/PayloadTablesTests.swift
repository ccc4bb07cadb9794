import Foundation
import QuireSQLite
import QuireTestSupport
import Testing

@testable import QuireServer

/// Issue 13 part 6, migration 24: a note's sealed payload (about 3 KB for a 2 KB note) is kept on
/// its row's own page, not spilled onto an overflow page that every key comparison on the way to
/// a row read whole; and a store upgraded from migration 23 keeps every note, version and counter.
struct PayloadTablesTests {
    private static let payload = String(repeating: "A1b2-C3d4_", count: 300)

    /// How many overflow pages hold parts of `table`'s rows (`dbstat`).
    private static func overflowPages(_ table: String, _ db: SQLiteConnection) throws -> Int {
        try db.queryFirst("SELECT COUNT(*) FROM dbstat WHERE name = ? AND pagetype = 'overflow'", table) {
            $0.int(0)
        } ?? -1
    }

    @Test func aNoteAndItsEarlierVersionKeepTheirPayloadsOnTheirOwnPages() async throws {
        let harness = try ServerHarness()
        let path = harness.directory.appendingPathComponent("server.sqlite").path
        let token = try await harness.server.createAccount(username: "ann")
        let id = ServerHarness.uuid()
        #expect(await harness.put(id, payload: Self.payload, base: nil, token: token).status == 200)
        #expect(await harness.put(id, payload: Self.payload + "2", base: 1, token: token).status == 200)
        let db = try SQLiteConnection(path: path)

        #expect(try db.queryFirst("SELECT COUNT(*) FROM note_versions") { $0.int(0) } == 1)
        #expect(try Self.overflowPages("notes", db) == 0)
        #expect(try Self.overflowPages("note_versions", db) == 0)
    }

    @Test func anUpgradedStoreKeepsEveryNoteVersionAndCounter() async throws {
        let directory = try TemporaryDirectory(prefix: "quire-payload-tables")
        let (db, path) = try SQLiteConnection.migratedWithAda(in: directory, through: 23)
        for (index, payload) in [Self.payload, "two!", "three"].enumerated() {
            try db.run(
                """
                INSERT INTO notes (account_id, note_id, version, deleted, payload, updated_at, seq,
                    written_by, mark, payload_bytes)
                VALUES (1, ?, 2, ?, ?, 5, ?, 9, 7, ?)
                """, "n\(index)", index == 2, index == 2 ? nil : payload, 3 - index,
                index == 2 ? 0 : payload.utf8.count)
            try db.run(
                """
                INSERT INTO note_versions (account_id, note_id, version, payload, saved_at, replaced_at,
                    written_by, mark)
                VALUES (1, ?, 1, ?, 1, 2, 9, 6)
                """, "n\(index)", "old \(index)")
        }
        let notesBefore = try Self.rows("SELECT * FROM notes ORDER BY note_id", db)
        let versionsBefore = try Self.rows("SELECT * FROM note_versions ORDER BY note_id", db)
        let countersBefore = try Self.rows("SELECT live_notes, live_bytes FROM accounts", db)
        try #require(try Self.overflowPages("notes", db) > 0)

        let storage = try SQLiteServerStorage(path: path)

        #expect(try Self.rows("SELECT * FROM notes ORDER BY note_id", db) == notesBefore)
        #expect(try Self.rows("SELECT * FROM note_versions ORDER BY note_id", db) == versionsBefore)
        #expect(try Self.rows("SELECT live_notes, live_bytes FROM accounts", db) == countersBefore)
        #expect(countersBefore == [["2", "\(Self.payload.utf8.count + 4)"]])
        #expect(try Self.overflowPages("notes", db) == 0)
        // The counters' triggers came back with the table: a new note counts.
        try db.run(
            """
            INSERT INTO notes (account_id, note_id, version, deleted, payload, updated_at, seq, mark, payload_bytes)
            VALUES (1, 'n3', 1, 0, 'four', 6, 4, 0, 4)
            """)
        #expect(
            try Self.rows("SELECT live_notes, live_bytes FROM accounts", db) == [
                ["3", "\(Self.payload.utf8.count + 8)"]
            ])
        let objects = try db.query(
            "SELECT name FROM sqlite_schema WHERE tbl_name IN ('notes', 'note_versions') ORDER BY name"
        ) { $0.text(0) }
        #expect(
            objects == [
                "note_versions", "note_versions_by_age", "notes", "notes_by_account_seq",
                "notes_tombstones_by_age", "notes_usage_delete", "notes_usage_insert", "notes_usage_update",
                "sqlite_autoindex_note_versions_1", "sqlite_autoindex_notes_1",
            ])
        await storage.close()
    }

    /// Every column of every row as text (NULL as "nil"), for comparing tables before and after.
    private static func rows(_ sql: String, _ db: SQLiteConnection) throws -> [[String]] {
        try db.query(sql) { row in (0..<row.columnCount).map { row.optionalText($0) ?? "nil" } }
    }
}
