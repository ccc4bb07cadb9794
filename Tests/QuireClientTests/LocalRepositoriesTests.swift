import Foundation
import QuireClient
import QuireDomain
import Testing

/// The repositories screens use: rows become `Note`s and `SyncStatus`, saves are never cut short.
struct LocalRepositoriesTests {
    @Test func notesCarryTheirSyncState() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let repository = LocalNotesRepository(records: database)
        let (synced, pending, refused, original, copy) = (
            NoteID(), NoteID(), NoteID(), NoteID(), NoteID()
        )
        try await database.saveSynced(synced, title: "Synced", body: "", version: 1)
        try await database.saveNote(id: refused, title: "Refused", body: "")
        let change = try #require(try await database.nextChange())
        try await database.markRefused(change.id, reason: "too big")
        try await repository.save(id: pending, title: "Pending", body: "")
        try await database.apply(
            [
                RemoteNote(
                    id: original, version: 1, updatedAt: Date(),
                    content: NoteContent(title: "Original", body: "")),
                RemoteNote(
                    id: copy, version: 1, updatedAt: Date(),
                    content: NoteContent(title: "Copy", body: "", conflictOf: original)),
            ], cursor: Cursor("c"), account: AccountID("a"))

        let notes = await StreamRecorder.start(repository.notes())
        let shown = try await notes.waitFor { $0.count == 5 }
        let states = Dictionary(uniqueKeysWithValues: shown.map { ($0.id, $0.sync) })

        #expect(states[synced] == .synced)
        #expect(states[pending] == .pending(changes: 1))
        #expect(states[refused] == .refused)
        #expect(states[original] == .conflict)
        #expect(states[copy] == .conflict)
        #expect(shown.first { $0.id == copy }?.conflictOf == original)
        await notes.stop()
    }

    @Test func deleteThroughTheRepositoryHidesTheNote() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let repository = LocalNotesRepository(records: database)
        let notes = await StreamRecorder.start(repository.notes())
        let id = NoteID()
        try await repository.save(id: id, title: "Brief", body: "")
        _ = try await notes.waitFor { $0.map(\.id) == [id] }

        try await repository.delete(id)

        _ = try await notes.waitFor { $0.isEmpty }
        await notes.stop()
    }

    @Test func aSaveCompletesEvenWhenTheCallerIsCancelled() async throws {
        let records = CancellationSensingRecords()
        let repository = LocalNotesRepository(records: records)
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await repository.save(id: NoteID(), title: "Mid-save", body: "")
        }

        try await caller.value

        #expect(await records.saves == 1)
    }

    @Test func statusMapsTheRowAndFollowsIt() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let repository = LocalSyncStatusRepository(records: database)
        let status = await StreamRecorder.start(repository.status())
        #expect(try await status.waitFor { _ in true } == SyncStatus())
        let syncedAt = Date(timeIntervalSinceReferenceDate: 42)

        try await database.saveNote(id: NoteID(), title: "A", body: "")
        try await database.recordRun(
            SyncRunRecord(
                lastSyncedAt: syncedAt, isSyncing: false, lastRunFailed: true, lastError: "offline",
                undecryptableCount: 1, lastFailureKind: .unreachable))

        let latest = try await status.waitFor { $0.lastRunFailed }
        let savedAt = try #require(latest.oldestPendingSince)
        #expect(
            latest
                == SyncStatus(
                    lastSyncedAt: syncedAt, isSyncing: false, lastRunFailed: true,
                    lastError: "offline", pendingCount: 1, conflictCount: 0, undecryptableCount: 1,
                    isOffline: true, isSignedOut: false, oldestPendingSince: savedAt))
        await status.stop()
    }
}

/// Records that refuse to save from a cancelled task, as any cooperative-cancellation store would:
/// proves the repository does not pass its caller's cancellation on to the write.
private actor CancellationSensingRecords: NoteRecords {
    private(set) var saves = 0

    nonisolated func noteRows() -> AsyncStream<[NoteRecord]> { AsyncStream { $0.finish() } }
    nonisolated func noteSummaryRows() -> AsyncStream<[NoteRecord]> { AsyncStream { $0.finish() } }
    nonisolated func noteSummaryRows(first count: Int) -> AsyncStream<[NoteRecord]> {
        AsyncStream { $0.finish() }
    }
    func noteSummaryRows(sortedBy sort: NoteListSort, after position: NoteListPosition?, limit: Int) -> [NoteRecord] {
        []
    }
    func noteRow(id: NoteID) -> NoteRecord? { nil }
    func conflictCopyRows(of id: NoteID) -> [NoteRecord] { [] }

    func saveNote(id: NoteID, title: String, body: String, editedFrom: NoteText?) throws {
        try Task.checkCancellation()
        saves += 1
    }

    func deleteNote(id: NoteID) throws {
        try Task.checkCancellation()
    }
}

/// The list's summary stream reads previews, not whole bodies, and follows changes.
@Suite struct NoteSummaryStreamTests {
    @Test func summariesCarryAPreviewAndFollowSaves() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let repository = LocalNotesRepository(records: database)
        let id = NoteID()
        let longBody = String(repeating: "word ", count: 2_000)
        try await database.saveNote(id: id, title: "Long", body: longBody)

        let summaries = await StreamRecorder.start(repository.summaries())
        let first = try await summaries.waitFor { !$0.isEmpty }
        #expect(first.first?.preview == String(longBody.prefix(NoteSummary.previewLength)))
        #expect(first.first?.sync == .pending(changes: 1))
        try await database.saveNote(id: id, title: "Renamed", body: "short")
        let next = try await summaries.waitFor { $0.first?.title == "Renamed" }
        #expect(next.first?.preview == "short")
        await summaries.stop()

        // The editor opens the whole body.
        #expect(try await repository.note(id: id)?.body == "short")
    }
}
