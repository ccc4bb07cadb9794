import Foundation
import QuireClient
import QuireDomain
import Testing

/// The published streams: what they replay, when they emit, and that they let go of a consumer.
struct NotesDatabaseStreamTests {
    @Test func statusStreamReportsTheRunRecordAndTheCounts() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let status = await StreamRecorder.start(database.statusRow())
        let initial = try await status.waitFor { _ in true }
        #expect(
            initial == SyncStatusRecord(run: SyncRunRecord(), pendingCount: 0, conflictCount: 0))

        try await database.saveNote(id: NoteID(), title: "A", body: "")
        try await database.saveNote(id: NoteID(), title: "B", body: "")
        _ = try await status.waitFor { $0.pendingCount == 2 }

        let original = NoteID()
        try await database.apply(
            [
                RemoteNote(
                    id: NoteID(), version: 1, updatedAt: Date(),
                    content: NoteContent(title: "Copy", body: "", conflictOf: original))
            ], cursor: Cursor("c"), account: AccountID("a"))
        _ = try await status.waitFor { $0.conflictCount == 1 }

        let failed = SyncRunRecord(lastRunFailed: true, lastError: "offline")
        try await database.recordRun(failed)
        let latest = try await status.waitFor { $0.run == failed }
        #expect(latest.pendingCount == 2)
        #expect(latest.conflictCount == 1)
        await status.stop()
    }

    @Test func pendingCountStreamFollowsTheQueue() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let pending = await StreamRecorder.start(database.pendingCount())
        _ = try await pending.waitFor { $0 == 0 }
        let id = NoteID()

        try await database.saveNote(id: id, title: "A", body: "")
        _ = try await pending.waitFor { $0 == 1 }
        let change = try #require(try await database.nextChange())
        try await database.complete(change.id, version: 1)
        _ = try await pending.waitFor { $0 == 0 }

        // Deduplicated: the values go 0, 1, 0 with no repeats of an unchanged count.
        let values = await pending.values
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 != $1 })
        await pending.stop()
    }

    @Test func aStreamEndsAndIsReleasedWhenItsConsumerIsCancelled() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let rows = await StreamRecorder.start(database.noteRows())
        let status = await StreamRecorder.start(database.statusRow())
        let pending = await StreamRecorder.start(database.pendingCount())
        _ = try await rows.waitFor { _ in true }
        _ = try await status.waitFor { _ in true }
        _ = try await pending.waitFor { _ in true }
        #expect(await database.subscriberCounts() == (notes: 1, status: 1, pending: 1))

        await rows.stop()
        await status.stop()
        await pending.stop()
        // The next commit finds the ended streams and drops them, whatever the termination
        // handlers' own clean-up is still doing.
        try await database.saveNote(id: NoteID(), title: "after", body: "")

        #expect(await database.subscriberCounts() == (notes: 0, status: 0, pending: 0))
        #expect(await rows.isFinished)
    }

    @Test func everySubscriberGetsEachCommit() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let first = await StreamRecorder.start(database.noteRows())
        let second = await StreamRecorder.start(database.noteRows())
        let id = NoteID()

        try await database.saveNote(id: id, title: "Shared", body: "")

        #expect(try await first.waitFor { !$0.isEmpty }.map(\.id) == [id])
        #expect(try await second.waitFor { !$0.isEmpty }.map(\.id) == [id])
        await first.stop()
        await second.stop()
    }

    @Test func droppingTheDatabaseEndsItsStreams() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        var database: NotesDatabase? = try fixture.open()
        let rows = await StreamRecorder.start(try #require(database).noteRows())
        _ = try await rows.waitFor { _ in true }

        database = nil

        await #expect(throws: StreamRecorder<[NoteRecord]>.Timeout.self) {
            try await rows.waitFor { _ in false }
        }
        #expect(await rows.isFinished)
    }
}
