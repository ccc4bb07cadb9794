import Foundation
import QuireDomain
import QuireSQLite
import QuireTestSupport
import Testing

@testable import QuireClient

/// A new notes database takes 8 KiB pages (``NotesSchema/pageSize``); a file from before keeps
/// its own, and bulk mode's WAL limit is a size in bytes whatever the page size.
struct DatabasePageSizeTests {
    let account = AccountID("account-1")

    func pageSize(_ file: URL) throws -> Int? {
        try SQLiteConnection(path: file.path).queryFirst("PRAGMA page_size") { $0.int(0) }
    }

    @Test func aNewDatabaseHasEightKiBPages() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.saveNote(id: NoteID(), title: "A", body: "text")

        #expect(try pageSize(fixture.fileURL) == 8_192)
    }

    @Test func aFileFromBeforeKeepsItsPageSizeAndItsNotes() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let id = NoteID()
        do {
            let old = try SQLiteConnection(path: fixture.fileURL.path)
            try SQLiteMigrator(Array(NotesSchema.migrations.prefix(16))).migrate(old)
            try old.run(
                "INSERT INTO notes (id, title, body, updated_at) VALUES (?, 'Kept', 'old text', 10)", id.description)
        }

        let database = try fixture.open()

        #expect(try pageSize(fixture.fileURL) == 4_096)
        #expect(try await database.noteRow(id: id)?.body == "old text")
        #expect(try await database.search("old").map(\.id) == [id])
    }

    /// 16,384 pages of 4 KiB before; at 8 KiB a page the same count would have let the WAL grow
    /// to 128 MiB before a checkpoint.
    @Test func bulkModeCheckpointsAtSixtyFourMiBOfWAL() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(account)
        let page = (0..<60).map { index in
            RemoteNote(
                id: NoteID(), version: 1, updatedAt: Date(timeIntervalSinceReferenceDate: Double(index)),
                content: NoteContent(title: "Note \(index)", body: "body \(index)"), versionTag: "t\(index)")
        }

        try await database.apply(page, cursor: Cursor("c1"), account: account)

        #expect(try await database.walAutocheckpointPages() * 8_192 == 64 << 20)
    }

    /// Migration 17 drops `notes_by_recency`, whose columns lead `notes_list`: the list by update
    /// still reads by an index, in the same order.
    @Test func theListByUpdateReadsTheListIndexOnceTheRecencyIndexIsGone() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let ids = [NoteID(), NoteID(), NoteID()]
        for (index, id) in ids.enumerated() {
            try await database.saveNote(id: id, title: "Note \(index)", body: "text \(index)")
        }
        let connection = try SQLiteConnection(path: fixture.fileURL.path)

        #expect(
            try connection.queryFirst("SELECT count(*) FROM sqlite_master WHERE name = 'notes_by_recency'") {
                $0.int(0)
            } == 0)
        let query =
            NotesDatabase.noteRowsSelect(body: "n.preview") + " WHERE n.deleted = 0" + NotesDatabase.listOrder
            + " LIMIT 101"
        let plan = try connection.query("EXPLAIN QUERY PLAN " + query) { ($0.int(1), $0.text(3)) }
            .filter { $0.0 == 0 }.map(\.1)
        #expect(plan.contains { $0.contains("INDEX notes_list") }, "plan: \(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "plan: \(plan)")
        // The fixture's clock stands still: one time, so the order is the ids'.
        #expect(try connection.query(query) { $0.text(0) } == ids.map(\.description).sorted())
    }
}
