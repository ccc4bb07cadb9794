import Foundation
import QuireClient
import QuireDomain
import QuireSQLite
import Testing

/// Opening files: old schemas are upgraded in place, newer ones refused, big ones open quickly.
struct NotesDatabaseMigrationTests {
    @Test func aFileAtSchemaVersionOneIsUpgradedWithoutLosingRows() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let id = NoteID()
        let changeID = ChangeID()
        do {
            // A file as the first release left it: migration 1 only, with a note and its change.
            let old = try SQLiteConnection(path: fixture.fileURL.path)
            try SQLiteMigrator(Array(NotesSchema.migrations.prefix(1))).migrate(old)
            try old.run(
                """
                INSERT INTO notes (id, title, body, updated_at, version, base_title, base_body,
                    confirmed)
                VALUES (?, 'Old', 'kept', 10, 3, 'Old', 'base', 1)
                """, id.description)
            try old.run(
                """
                INSERT INTO pending_changes (change_id, note_id, kind, title, body, created_at)
                VALUES (?, ?, 'put', 'Old', 'kept', 10)
                """, changeID.description, id.description)
            try old.run("INSERT INTO sync_meta (key, value) VALUES ('cursor', 'c41')")
            #expect(try old.userVersion() == 1)
        }

        let database = try fixture.open()

        let row = try #require(try await database.noteRow(id: id))
        #expect(row.body == "kept")
        #expect(row.version == 3)
        #expect(row.pendingCount == 1)
        #expect(try await database.cursor() == Cursor("c41"))
        let change = try #require(try await database.nextChange())
        #expect(change.id == changeID)
        #expect(change.baseVersion == 3)
        let check = try SQLiteConnection(path: fixture.fileURL.path)
        #expect(try check.userVersion() == NotesSchema.migrations.count)
        let indexes = try check.query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'notes_by_conflict_of'"
        ) { $0.text(0) }
        #expect(indexes == ["notes_by_conflict_of"])
    }

    @Test func aFileFromANewerSchemaIsRefused() throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        do {
            let future = try SQLiteConnection(path: fixture.fileURL.path)
            try future.setUserVersion(NotesSchema.migrations.count + 1)
        }

        #expect(throws: SQLiteError.self) { try fixture.open() }
    }

    @Test func tenThousandSavesThenReopeningShowsThemAll() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let count = 10_000
        var last = NoteID()
        do {
            let database = try fixture.openFast()
            for index in 0..<count {
                last = NoteID()
                try await database.saveNote(id: last, title: "Note \(index)", body: "body \(index)")
                fixture.clock.advance(by: 0.001)
            }
        }

        let reopened = try fixture.open()
        let rows = await StreamRecorder.start(reopened.noteRows())
        let shown = try await rows.waitFor(timeout: .seconds(20)) { _ in true }
        #expect(shown.count == count)
        #expect(shown.first?.id == last)
        #expect(shown.allSatisfy { $0.pendingCount == 1 })
        #expect(try await reopened.readStatus().pendingCount == count)
        await rows.stop()
    }
}
