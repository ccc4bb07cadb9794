import Foundation
import QuireSQLite
import QuireTestSupport
import Testing

@testable import QuireServer

/// Issue 13 part 6: every index on the SQLite store's notes is rewritten by the writes that
/// touch it, so none is kept that no query reads. The quota reads the account's counters
/// (migration 19); the index that counted live notes and bytes before them went with
/// migration 23.
struct NoteIndexesTests {
    private static func noteIndexes(_ db: SQLiteConnection) throws -> [String] {
        try db.query("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'notes' ORDER BY name") {
            $0.text(0)
        }
    }

    @Test func aFreshStoreKeepsOnlyTheIndexesItsQueriesRead() async throws {
        let directory = try TemporaryDirectory(prefix: "quire-note-indexes")
        let path = directory.path("server.sqlite").path
        let storage = try SQLiteServerStorage(path: path)

        let indexes = try Self.noteIndexes(SQLiteConnection(path: path))

        // The primary key's own index (a rowid table's, since migration 24) and the two a query reads.
        #expect(indexes == ["notes_by_account_seq", "notes_tombstones_by_age", "sqlite_autoindex_notes_1"])
        await storage.close()
    }

    @Test func anUpgradedStoreDropsTheRetiredIndexAndKeepsItsCounters() async throws {
        let directory = try TemporaryDirectory(prefix: "quire-note-indexes")
        let (db, path) = try SQLiteConnection.migratedWithAda(in: directory, through: 21)
        for (index, payload) in ["one", "two!", "three"].enumerated() {
            try db.run(
                """
                INSERT INTO notes (account_id, note_id, version, deleted, payload, updated_at, seq,
                    mark, payload_bytes)
                VALUES (1, ?, 1, 0, ?, 0, ?, 0, ?)
                """, "n\(index)", payload, index + 1, payload.utf8.count)
        }
        try #require(try Self.noteIndexes(db).contains("notes_live_bytes"))

        let storage = try SQLiteServerStorage(path: path)
        let indexes = try Self.noteIndexes(db)
        let counters = try db.queryFirst("SELECT live_notes, live_bytes FROM accounts WHERE id = 1") {
            [$0.int(0), $0.int(1)]
        }

        #expect(!indexes.contains("notes_live_bytes"))
        #expect(counters == [3, 12])
        await storage.close()
    }
}
