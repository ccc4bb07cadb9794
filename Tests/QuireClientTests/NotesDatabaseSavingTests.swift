import Foundation
import QuireClient
import QuireDomain
import Testing

/// Saving and deleting on one device: what lands in the database, the queue and the list.
struct NotesDatabaseSavingTests {
    struct InjectedFault: Error {}

    @Test func savedNoteAppearsInTheStream() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let rows = await StreamRecorder.start(database.noteRows())
        _ = try await rows.waitFor { $0.isEmpty }

        let id = NoteID()
        try await database.saveNote(id: id, title: "Groceries", body: "milk")

        let shown = try await rows.waitFor { !$0.isEmpty }
        #expect(shown.map(\.id) == [id])
        #expect(shown.first?.title == "Groceries")
        #expect(shown.first?.body == "milk")
        #expect(shown.first?.pendingCount == 1)
        #expect(shown.first?.version == 0)
        await rows.stop()
    }

    @Test func savedNoteAndItsChangeSurviveReopening() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let id = NoteID()
        do {
            let database = try fixture.open()
            try await database.saveNote(id: id, title: "Plans", body: "call mum")
        }

        let reopened = try fixture.open()
        let row = try #require(try await reopened.noteRow(id: id))
        #expect(row.title == "Plans")
        #expect(row.body == "call mum")
        let change = try #require(try await reopened.nextChange())
        #expect(change.noteID == id)
        #expect(change.operation == .put(NoteContent(title: "Plans", body: "call mum")))
    }

    @Test func noteAndItsChangeCommitTogetherOrNotAtAll() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let rows = await StreamRecorder.start(database.noteRows())
        let kept = NoteID()
        try await database.saveNote(id: kept, title: "Kept", body: "")

        let lost = NoteID()
        await database.setFaultAfterNoteWrite(InjectedFault())
        await #expect(throws: InjectedFault.self) {
            try await database.saveNote(id: lost, title: "Lost", body: "half written")
        }
        await database.setFaultAfterNoteWrite(nil)
        let later = NoteID()
        try await database.saveNote(id: later, title: "Later", body: "")

        #expect(try await database.noteRow(id: lost) == nil)
        #expect(try await database.readStatus().pendingCount == 2)
        _ = try await rows.waitFor { $0.contains { $0.id == later } }
        let everShown = await rows.values.flatMap { $0.map(\.id) }
        #expect(everShown.contains(kept))
        #expect(!everShown.contains(lost))
        await rows.stop()
    }

    @Test func unsentEditsFoldIntoOneChangeWithTheLatestText() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()

        try await database.saveNote(id: id, title: "Draft", body: "one")
        try await database.saveNote(id: id, title: "Draft", body: "one two")

        #expect(try await database.noteRow(id: id)?.pendingCount == 1)
        let change = try #require(try await database.nextChange())
        #expect(change.operation == .put(NoteContent(title: "Draft", body: "one two")))
        #expect(change.baseVersion == nil)
    }

    @Test func changeInFlightStaysFrozenAndALaterEditQueuesBehindIt() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveNote(id: id, title: "T", body: "sent")
        let first = try #require(try await database.nextChange())

        try await database.saveNote(id: id, title: "T", body: "typed after sending")

        #expect(try await database.noteRow(id: id)?.pendingCount == 2)
        #expect(try await database.nextChange() == first)
        try await database.complete(first.id, version: 1)
        let second = try #require(try await database.nextChange())
        #expect(second.id != first.id)
        #expect(second.operation == .put(NoteContent(title: "T", body: "typed after sending")))
        #expect(second.baseVersion == 1)
    }

    @Test func savingTheSameTextWithNothingPendingQueuesNothing() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveSynced(id, title: "Same", body: "text", version: 3)
        let before = try #require(try await database.noteRow(id: id))
        fixture.clock.advance()

        try await database.saveNote(id: id, title: "Same", body: "text")

        #expect(try await database.noteRow(id: id) == before)
        #expect(try await database.nextChange() == nil)
    }

    @Test func deletingASyncedNoteHidesItAndQueuesADeleteOnItsVersion() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveSynced(id, title: "Old", body: "", version: 4)
        try await database.saveNote(id: id, title: "Old", body: "unsent edit")

        try await database.deleteNote(id: id)

        #expect(try await database.noteRow(id: id) == nil)
        #expect(try await database.readNoteRows().isEmpty)
        #expect(try await database.readStatus().pendingCount == 1)
        let change = try #require(try await database.nextChange())
        #expect(change.operation == .delete)
        #expect(change.baseVersion == 4)
    }

    @Test func deletingANoteTheServerNeverSawQueuesNothing() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveNote(id: id, title: "Typo", body: "")

        try await database.deleteNote(id: id)

        #expect(try await database.noteRow(id: id) == nil)
        #expect(try await database.nextChange() == nil)
        #expect(try await database.readStatus().pendingCount == 0)
    }

    @Test func deletingANoteWhosePutIsInFlightQueuesTheDeleteBehindIt() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveNote(id: id, title: "New", body: "")
        let put = try #require(try await database.nextChange())

        try await database.deleteNote(id: id)

        try await database.complete(put.id, version: 1)
        let delete = try #require(try await database.nextChange())
        #expect(delete.noteID == id)
        #expect(delete.operation == .delete)
        #expect(delete.baseVersion == 1)
    }

    @Test func deletingAnUnknownOrDeletedNoteChangesNothing() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveSynced(id, title: "Gone", body: "", version: 1)
        try await database.deleteNote(id: id)
        let queued = try #require(try await database.nextChange())

        try await database.deleteNote(id: id)
        try await database.deleteNote(id: NoteID())

        #expect(try await database.nextChange() == queued)
        #expect(try await database.readStatus().pendingCount == 1)
    }

    @Test func savingADeletedNoteBringsItBackAsAPut() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveSynced(id, title: "Back", body: "", version: 2)
        try await database.deleteNote(id: id)

        try await database.saveNote(id: id, title: "Back", body: "again")

        #expect(try await database.noteRow(id: id)?.body == "again")
        let change = try #require(try await database.nextChange())
        #expect(change.operation == .put(NoteContent(title: "Back", body: "again")))
        #expect(try await database.readStatus().pendingCount == 1)
    }

    @Test func rowsAreNewestFirst() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (a, b, c) = (NoteID(), NoteID(), NoteID())
        for id in [a, b, c] {
            try await database.saveNote(id: id, title: id.description, body: "")
            fixture.clock.advance()
        }
        try await database.saveNote(id: a, title: "edited", body: "")

        #expect(try await database.readNoteRows().map(\.id) == [a, c, b])
    }
}
