import Foundation
import QuireClient
import QuireDomain
import QuireSQLite
import Testing

/// This device's trash (issue 10, part 3): when each note went, and what is left of a note once
/// the server has forgotten it.
struct NotesDatabaseTrashTests {
    let account = AccountID("account-1")

    /// `quire trash` prints "deleted <time>": a delete typed here an hour after the last edit,
    /// not synced yet, was deleted an hour later than it was edited.
    @Test func aDeleteNotSyncedYetIsInTheTrashAtTheTimeOfTheDelete() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveSynced(id, title: "Trip", body: "pack the charger", version: 1)
        fixture.clock.advance(by: 3_600)
        let deletedAt = fixture.clock.now

        try await database.deleteNote(id: id)
        fixture.clock.advance(by: 60)

        let unsent = try #require(try await database.localTrash().first)
        #expect(unsent.deleteUnsent)
        #expect(unsent.deletedAt == deletedAt)
        // Sent and acknowledged, it keeps the time it was deleted.
        let change = try #require(try await database.nextChange())
        try await database.complete(change.id, version: 2)
        let sent = try #require(try await database.localTrash().first)
        #expect(!sent.deleteUnsent)
        #expect(sent.deletedAt == deletedAt)
    }

    /// A file from before delete times (client migration 12): a tombstone whose delete waits
    /// takes the time of that delete; one already sent, its last edit's (all that is known).
    @Test func tombstonesFromBeforeDeleteTimesTakeTheirWaitingDeletesTime() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let waiting = NoteID()
        let sent = NoteID()
        do {
            let old = try SQLiteConnection(path: fixture.fileURL.path)
            try SQLiteMigrator(Array(NotesSchema.migrations.prefix(11))).migrate(old)
            for id in [waiting, sent] {
                try old.run(
                    """
                    INSERT INTO notes (id, title, body, updated_at, version, deleted, confirmed)
                    VALUES (?, 'Old', 'kept', 10, 3, 1, 1)
                    """, id.description)
            }
            try old.run(
                """
                INSERT INTO pending_changes (change_id, note_id, kind, created_at)
                VALUES (?, ?, 'delete', 500)
                """, ChangeID().description, waiting.description)
        }

        let trash = try await fixture.open().localTrash()

        #expect(trash.map(\.id) == [waiting, sent])
        #expect(trash.map(\.deletedAt.timeIntervalSinceReferenceDate) == [500, 10])
    }

    /// A delete pulled from another device went at the server's time of that delete, not at this
    /// device's last edit of the note.
    @Test func aDeletePulledFromAnotherDeviceIsInTheTrashAtTheServersTimeOfTheDelete() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveSynced(id, title: "Trip", body: "pack the charger", version: 1)
        let deletedAt = fixture.clock.now.addingTimeInterval(7_200)

        try await database.apply(
            [RemoteNote(id: id, version: 2, updatedAt: deletedAt, content: nil, versionTag: "77")],
            cursor: Cursor("c1"), account: account)

        #expect(try await database.localTrash().first?.deletedAt == deletedAt)
    }

    /// A tombstone the server no longer lists (purged: past retention), pulled or deleted here,
    /// is forgotten by a full listing, and so are this device's earlier texts of it: nothing can name the note any more
    /// (it is in no list and no trash), so they would stay for ever.
    @Test(arguments: [FullResyncReason.cursorExpired, .serverForgot])
    func aTombstoneForgottenAfterAListingTakesItsHistoryWithIt(_ reason: FullResyncReason) async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let gone = NoteID()
        let goneHere = NoteID()
        let kept = NoteID()
        try await database.saveSynced(goneHere, title: "Old", body: "deleted here", version: 1)
        try await database.deleteNote(id: goneHere)
        try await database.complete(try #require(try await database.nextChange()).id, version: 2)
        try await database.saveSynced(gone, title: "Trip", body: "pack the charger", version: 1)
        try await database.saveSynced(kept, title: "List", body: "milk", version: 1)
        try await database.saveNote(id: kept, title: "List", body: "oat milk")
        try await database.complete(try #require(try await database.nextChange()).id, version: 2)
        try await database.apply(
            [RemoteNote(id: gone, version: 2, updatedAt: fixture.clock.now, content: nil, versionTag: "7")],
            cursor: Cursor("c1"), account: account)
        #expect(try await database.localHistory(of: gone).map(\.body) == ["pack the charger"])

        // The listing has the live note and not the tombstone.
        try await database.beginFullResync(reason)
        try await database.apply(
            [
                RemoteNote(
                    id: kept, version: 2, updatedAt: fixture.clock.now,
                    content: NoteContent(title: "List", body: "oat milk"), versionTag: nil)
            ], cursor: Cursor("c2"), account: account)
        try await database.finishFullResync()

        #expect(try await database.localTrash().isEmpty)
        #expect(try await database.localHistory(of: gone).isEmpty)
        #expect(try await database.localHistory(of: goneHere).isEmpty)
        #expect(try await database.localHistory(of: kept).map(\.body) == ["oat milk", "milk"])
    }
}
