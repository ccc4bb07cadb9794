import Foundation
import QuireClient
import QuireDomain
import Testing

/// The engine's half: completing and refusing changes, applying pulls, the account, full resyncs.
struct NotesDatabaseSyncTests {
    let account = AccountID("account-1")

    private func remote(
        _ id: NoteID, version: Int, title: String = "server", body: String = "text",
        conflictOf: NoteID? = nil
    ) -> RemoteNote {
        RemoteNote(
            id: id, version: version, updatedAt: Date(timeIntervalSinceReferenceDate: 1_000),
            content: NoteContent(title: title, body: body, conflictOf: conflictOf))
    }

    private func tombstone(_ id: NoteID, version: Int) -> RemoteNote {
        RemoteNote(
            id: id, version: version, updatedAt: Date(timeIntervalSinceReferenceDate: 1_000),
            content: nil)
    }

    // MARK: - Pushing

    @Test func completingAPutRecordsTheVersionAndTheSentTextAsBase() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveNote(id: id, title: "T", body: "sent")
        let sent = try #require(try await database.nextChange())
        try await database.saveNote(id: id, title: "T", body: "moved on")

        try await database.complete(sent.id, version: 7)

        let row = try #require(try await database.noteRow(id: id))
        #expect(row.version == 7)
        #expect(row.body == "moved on")
        #expect(row.pendingCount == 1)
        let next = try #require(try await database.nextChange())
        let context = try await database.conflictContext(for: next.id)
        #expect(context.base == NoteText(title: "T", body: "sent"))
        #expect(context.local == .edited(NoteText(title: "T", body: "moved on")))
    }

    @Test func completingAnUnknownChangeThrows() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()

        let error = await #expect(throws: NotesDatabaseError.self) {
            try await database.complete(ChangeID(), version: 1)
        }
        #expect(error?.kind == .unknownChange)
    }

    @Test func aRefusedChangeIsShownSkippedAndRetriedByTheNextEdit() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (refusedNote, otherNote) = (NoteID(), NoteID())
        try await database.saveNote(id: refusedNote, title: "Too big", body: "")
        let refused = try #require(try await database.nextChange())
        fixture.clock.advance()
        try await database.saveNote(id: otherNote, title: "Fine", body: "")

        try await database.markRefused(refused.id, reason: "payload too large")

        #expect(try await database.noteRow(id: refusedNote)?.refused == true)
        #expect(try await database.noteRow(id: refusedNote)?.body == "")
        #expect(try await database.nextChange()?.noteID == otherNote)

        try await database.saveNote(id: refusedNote, title: "Smaller", body: "")

        #expect(try await database.noteRow(id: refusedNote)?.refused == false)
        #expect(try await database.noteRow(id: refusedNote)?.pendingCount == 1)
        let other = try #require(try await database.nextChange())
        try await database.complete(other.id, version: 1)
        let retry = try #require(try await database.nextChange())
        #expect(retry.noteID == refusedNote)
        #expect(retry.id != refused.id)
        #expect(retry.operation == .put(NoteContent(title: "Smaller", body: "")))
    }

    // MARK: - Pulling

    @Test func applySkipsNotesWithPendingChanges() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveSynced(id, title: "Mine", body: "v1", version: 1)
        try await database.saveNote(id: id, title: "Mine", body: "typing")

        try await database.apply([remote(id, version: 2)], cursor: Cursor("c1"), account: account)

        let row = try #require(try await database.noteRow(id: id))
        #expect(row.body == "typing")
        #expect(row.version == 1)
    }

    @Test func applySkipsChangesNoNewerThanTheLocalCopy() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveSynced(id, title: "Local", body: "v5", version: 5)

        try await database.apply(
            [remote(id, version: 4), remote(id, version: 5)], cursor: Cursor("c1"),
            account: account)

        #expect(try await database.noteRow(id: id)?.body == "v5")
    }

    @Test func applyWritesNewerNotesAndTheirTextBecomesTheBase() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (known, fresh, original) = (NoteID(), NoteID(), NoteID())
        try await database.saveSynced(known, title: "Old", body: "", version: 1)

        try await database.apply(
            [
                remote(known, version: 3, title: "New", body: "from laptop"),
                remote(fresh, version: 1, title: "Copy", body: "x", conflictOf: original),
            ], cursor: Cursor("c1"), account: account)

        let row = try #require(try await database.noteRow(id: known))
        #expect(row.title == "New")
        #expect(row.version == 3)
        #expect(row.pendingCount == 0)
        let copy = try #require(try await database.noteRow(id: fresh))
        #expect(copy.conflictOf == original)
        #expect(copy.inConflict)
        // The pulled text is the base a later edit merges against.
        try await database.saveNote(id: known, title: "New", body: "from laptop, then phone")
        let change = try #require(try await database.nextChange())
        #expect(change.baseVersion == 3)
        let context = try await database.conflictContext(for: change.id)
        #expect(context.base == NoteText(title: "New", body: "from laptop"))
    }

    @Test func applyTombstonesKnownNotesAndIgnoresTombstonesOfUnknownOnes() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (known, unknown) = (NoteID(), NoteID())
        try await database.saveSynced(known, title: "Bye", body: "", version: 1)

        try await database.apply(
            [tombstone(known, version: 2), tombstone(unknown, version: 9)], cursor: Cursor("c1"),
            account: account)

        #expect(try await database.noteRow(id: known) == nil)
        #expect(try await database.readNoteRows().isEmpty)
        // The unknown tombstone left no row: a later copy of that note at version 1 applies.
        try await database.apply(
            [remote(unknown, version: 1)], cursor: Cursor("c2"), account: account)
        #expect(try await database.noteRow(id: unknown) != nil)
    }

    @Test func applyStoresTheCursorWithTheChanges() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        #expect(try await database.cursor() == nil)

        try await database.apply(
            [remote(NoteID(), version: 1)], cursor: Cursor("c9"), account: account)

        #expect(try await database.cursor() == Cursor("c9"))
        let reopened = try fixture.open()
        #expect(try await reopened.cursor() == Cursor("c9"))
    }

    @Test func applyRefusesAnotherAccountAndWritesNothing() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(account)
        try await database.apply([], cursor: Cursor("mine"), account: account)
        let id = NoteID()

        let error = await #expect(throws: NotesDatabaseError.self) {
            try await database.apply(
                [self.remote(id, version: 1)], cursor: Cursor("theirs"),
                account: AccountID("someone-else"))
        }

        #expect(error?.kind == .wrongAccount)
        #expect(try await database.noteRow(id: id) == nil)
        #expect(try await database.cursor() == Cursor("mine"))
    }

    @Test func bindingAnotherAccountForgetsTheCursor() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(account)
        try await database.apply([], cursor: Cursor("c1"), account: account)

        try await database.bindAccount(account)
        #expect(try await database.cursor() == Cursor("c1"))

        try await database.bindAccount(AccountID("account-2"))
        #expect(try await database.boundAccount() == AccountID("account-2"))
        #expect(try await database.cursor() == nil)
    }

    @Test func bindingAnotherAccountWhileHoldingNotesIsRefusedAndChangesNothing() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(account)
        try await database.apply([], cursor: Cursor("c1"), account: account)
        try await database.saveNote(id: NoteID(), title: "Mine", body: "not yet synced")

        let error = await #expect(throws: NotesDatabaseError.self) {
            try await database.bindAccount(AccountID("account-2"))
        }

        #expect(error?.kind == .wrongAccount)
        #expect(try await database.boundAccount() == account)
        #expect(try await database.cursor() == Cursor("c1"))
    }

    // MARK: - Full resync

    @Test func fullResyncRemovesNotesTheServerNoLongerHasButKeepsPendingOnes() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (listed, gone, goneButEdited, neverSent) = (NoteID(), NoteID(), NoteID(), NoteID())
        try await database.saveSynced(listed, title: "Listed", body: "", version: 2)
        try await database.saveSynced(gone, title: "Gone", body: "", version: 1)
        try await database.saveSynced(goneButEdited, title: "Edited", body: "", version: 1)
        try await database.saveNote(id: goneButEdited, title: "Edited", body: "offline")
        try await database.saveNote(id: neverSent, title: "New", body: "")
        try await database.apply([], cursor: Cursor("old"), account: account)

        try await database.beginFullResync()
        #expect(try await database.cursor() == nil)
        try await database.apply(
            [remote(listed, version: 2)], cursor: Cursor("fresh"), account: account)
        try await database.finishFullResync()

        let ids = Set(try await database.readNoteRows().map(\.id))
        #expect(ids == [listed, goneButEdited, neverSent])
        #expect(try await database.cursor() == Cursor("fresh"))
    }

    // MARK: - Run record

    @Test func theRunRecordRoundTrips() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        #expect(try await database.runRecord() == SyncRunRecord())
        let record = SyncRunRecord(
            lastSyncedAt: Date(timeIntervalSinceReferenceDate: 123.25), isSyncing: true,
            lastRunFailed: true, lastError: "offline", undecryptableCount: 2)

        try await database.recordRun(record)

        #expect(try await database.runRecord() == record)
        #expect(try await fixture.open().runRecord() == record)
    }
}

/// Batches: several notes' changes frozen together, resent together.
@Suite struct NotesDatabaseBatchTests {
    @Test func changesOfSeveralNotesAreFrozenTogetherAndResentUnchanged() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let ids = [NoteID(), NoteID(), NoteID()]
        for id in ids { try await database.saveNote(id: id, title: "t", body: "b") }

        let batch = try await database.nextChanges(limit: 2)
        #expect(batch.map(\.noteID) == Array(ids.prefix(2)))
        // A save of a note in flight queues behind it; the in-flight set comes back as it was.
        try await database.saveNote(id: ids[0], title: "t", body: "b2")
        #expect(try await database.nextChanges(limit: 10) == batch)

        for change in batch { try await database.complete(change.id, version: 1) }
        let next = try await database.nextChanges(limit: 10)
        #expect(Set(next.map(\.noteID)) == [ids[0], ids[2]])
        #expect(next.first { $0.noteID == ids[0] }?.baseVersion == 1)
    }
}
