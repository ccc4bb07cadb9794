import Foundation
import QuireClient
import QuireDomain
import Testing

/// Refused changes (issue 9, defects 1-3): a refusal never reorders a note's saves, never strands a
/// later save behind an old frozen payload, and never blocks other devices' edits of the note.
struct NotesDatabaseRefusalTests {
    let account = AccountID("account-1")

    /// Given c1 in flight and c2 queued behind it, when the server refuses c1, the newest save must
    /// be the note's only unsent change: the next save folds into it, never into the refused c1.
    @Test func aRefusedChangeIsSupersededByTheSaveQueuedBehindIt() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveSynced(id, title: "T", body: "v1", version: 1)
        try await database.saveNote(id: id, title: "T", body: "first edit")
        let c1 = try #require(try await database.nextChange())
        try await database.saveNote(id: id, title: "T", body: "second edit")

        try await database.markRefused(c1.id, reason: "too large")
        try await database.saveNote(id: id, title: "T", body: "third edit")

        #expect(try await database.noteRow(id: id)?.pendingCount == 1)
        let next = try #require(try await database.nextChange())
        #expect(next.operation == .put(NoteContent(title: "T", body: "third edit")))
        try await database.complete(next.id, version: 2)
        #expect(try await database.nextChange() == nil)
    }

    /// A save folded into a refused change must be sealed anew: the old frozen payload is the old
    /// text (a 5 MB note shrunk to "small now" must not be resent as the old ciphertext).
    @Test func aSaveFoldedIntoARefusedChangeDropsItsFrozenPayload() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveNote(id: id, title: "Big", body: String(repeating: "x", count: 1000))
        let sent = try #require(try await database.nextChange())
        _ = try await database.freezePayload(sent.id, payload: "OLD-CIPHERTEXT")
        try await database.markRefused(sent.id, reason: "too large")

        try await database.saveNote(id: id, title: "Big", body: "small now")

        let next = try #require(try await database.nextChange())
        #expect(next.payload == nil)
        #expect(next.operation == .put(NoteContent(title: "Big", body: "small now")))
    }

    /// The reason a change was refused is kept with the note until the next save.
    @Test func theRefusalReasonIsShownWithTheNote() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveNote(id: id, title: "Big", body: "x")
        let sent = try #require(try await database.nextChange())
        try await database.markRefused(sent.id, reason: "The note is too large to sync.")

        let row = try #require(try await database.noteRow(id: id))
        #expect(row.refused)
        #expect(row.syncIssue == "The note is too large to sync.")

        try await database.saveNote(id: id, title: "Big", body: "y")
        #expect(try await database.noteRow(id: id)?.syncIssue == nil)
    }

    /// Another device's edit of a note whose own change was refused still arrives: the server's
    /// text becomes the note, the refused local text a conflict copy linked to it.
    @Test func anotherDevicesEditOfARefusedNoteArrivesAndTheLocalTextBecomesACopy() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(account)
        let id = NoteID()
        try await database.saveSynced(id, title: "Plan", body: "v1", version: 1)
        try await database.saveNote(id: id, title: "Plan", body: "local text the server refused")
        let sent = try #require(try await database.nextChange())
        try await database.markRefused(sent.id, reason: "refused")

        let remote = RemoteNote(
            id: id, version: 2, updatedAt: Date(timeIntervalSinceReferenceDate: 2_000),
            content: NoteContent(title: "Plan", body: "edited on the laptop"))
        try await database.apply([remote], cursor: Cursor("c2"), account: account)

        let rows = try await database.readNoteRows()
        let original = try #require(rows.first { $0.id == id })
        #expect(original.body == "edited on the laptop")
        #expect(original.version == 2)
        #expect(!original.refused)
        let copy = try #require(rows.first { $0.conflictOf == id })
        #expect(copy.body == "local text the server refused")
        #expect(copy.pendingCount == 1)
    }

    /// A refused delete loses to another device's edit: the note comes back with that edit.
    @Test func aRefusedDeleteYieldsToAnotherDevicesEdit() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(account)
        let id = NoteID()
        try await database.saveSynced(id, title: "Plan", body: "v1", version: 1)
        try await database.deleteNote(id: id)
        let sent = try #require(try await database.nextChange())
        try await database.markRefused(sent.id, reason: "refused")

        let remote = RemoteNote(
            id: id, version: 2, updatedAt: Date(timeIntervalSinceReferenceDate: 2_000),
            content: NoteContent(title: "Plan", body: "edited elsewhere"))
        try await database.apply([remote], cursor: Cursor("c2"), account: account)

        let row = try #require(try await database.noteRow(id: id))
        #expect(row.body == "edited elsewhere")
        #expect(row.pendingCount == 0)
    }

    /// A refused delete brings its note back (text nobody could see is no text kept), and since
    /// an earlier send of it may have landed, the next pull lists every note to settle it.
    @Test func aRefusedDeleteBringsTheNoteBackAndListsEveryNoteNext() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(account)
        let id = NoteID()
        try await database.saveSynced(id, title: "Plan", body: "v1", version: 1)
        try await database.apply([], cursor: Cursor("c1"), account: account)
        try await database.deleteNote(id: id)
        let sent = try #require(try await database.nextChange())

        try await database.markRefused(sent.id, reason: "refused")

        #expect(try await database.noteRow(id: id)?.body == "v1")
        #expect(try await database.noteRow(id: id)?.pendingCount == 0)
        #expect(try await database.cursor() == nil)
        // The listing does not list it (the delete had landed): it goes.
        try await database.apply([], cursor: Cursor("c9"), account: account)
        try await database.finishFullResync()
        #expect(try await database.noteRow(id: id) == nil)
    }

    /// A freeze keeps the payload stored first and hands it back, so a second process that sealed
    /// the same change again sends the first process's bytes, not its own.
    @Test func freezingTwiceKeepsAndReturnsTheFirstPayload() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.saveNote(id: NoteID(), title: "T", body: "x")
        let sent = try #require(try await database.nextChange())

        let first = try await database.freezePayload(sent.id, payload: "FIRST")
        let second = try await database.freezePayload(sent.id, payload: "SECOND")

        #expect(first == "FIRST")
        #expect(second == "FIRST")
    }
}
