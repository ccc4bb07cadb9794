import Foundation
import QuireDomain
import Testing

@testable import QuirePresentation

/// The list, the empty states and the sync problem line (seed 000 card 2, promise 5).
@MainActor
struct NotesViewStateTests {
    @Test func beforeTheFirstSyncWithARemoteTheListSaysLoading() async throws {
        let h = Harness(status: SyncStatus(isSyncing: true))
        defer { h.stop() }
        try await h.start()
        try await h.waitUntil("syncing") { h.state.isSyncing }

        #expect(h.state.empty == .firstSyncRunning)
        #expect(h.state.rows.isEmpty)
        #expect(h.state.statusLabel == "Syncing…")
    }

    @Test func aFailedFirstSyncShowsItsMessageNeverNoNotes() async throws {
        let h = Harness(status: SyncStatus(isSyncing: true))
        defer { h.stop() }
        try await h.start()

        h.status.set(SyncStatus(lastRunFailed: true, lastError: "The server did not answer."))
        try await h.waitUntil("the failure") { h.state.syncProblem != nil }

        #expect(h.state.empty == .firstSyncFailed(message: "The server did not answer."))
        #expect(h.state.syncProblem == "Couldn't sync yet")
        #expect(!h.state.isSyncing)
    }

    @Test func afterASuccessfulSyncAnEmptyListIsNoNotes() async throws {
        let h = Harness(status: SyncStatus(isSyncing: true))
        defer { h.stop() }
        try await h.start()
        #expect(h.state.empty == .firstSyncRunning)

        h.status.set(SyncStatus(lastSyncedAt: Harness.now))
        try await h.waitUntil("no notes") { h.state.empty == .noNotes }
        #expect(h.state.syncProblem == nil)
        #expect(h.state.statusLabel == "Synced")
    }

    @Test func withNoRemoteAnEmptyListIsNoNotesAtOnce() async throws {
        let h = Harness(status: SyncStatus(lastRunFailed: true), syncConfigured: false)
        defer { h.stop() }
        try await h.start()

        #expect(h.state.empty == .noNotes)
        #expect(h.state.syncProblem == nil)
        #expect(h.state.statusLabel == "On this device only")
    }

    @Test func rowsShowTitlePreviewDateAndBadge() async throws {
        let long = String(repeating: "word ", count: 30)
        let notes: [Note] = [
            .sample(
                "  Groceries ", "\n   \n  eggs  \nmilk", sync: .pending(changes: 2), minutesAgo: 78),
            .sample("", long, sync: .conflict, minutesAgo: 60 * 24 * 10),
            .sample("Refused", "x", sync: .refused, minutesAgo: 60 * 24 * 11),
            .sample("Plain", "", sync: .synced, minutesAgo: 60 * 24 * 12),
        ]
        let h = Harness(notes: notes)
        defer { h.stop() }
        try await h.start()
        let rows = h.state.rows

        #expect(rows.map(\.title) == ["Groceries", "Untitled", "Refused", "Plain"])
        #expect(rows.map(\.badge) == [.notSynced, .conflict, .refused, .none])
        #expect(rows[0].preview == "eggs")
        #expect(rows[0].date == "10:42")
        #expect(rows[1].date == "21 Feb 2025")
        #expect(rows[1].preview.count == NoteRow.previewLength)
        #expect(rows[1].preview.hasSuffix("…"))
        #expect(rows[1].preview.hasPrefix("word word"))
        #expect(rows[3].preview == "")
        #expect(rows[0].badge.label == "Not synced")
        #expect(h.state.empty == nil)
    }

    @Test func rowsFormattedYesterdayShowTheirDateAfterMidnight() async throws {
        let now = MovableNow(Harness.now)
        let formatter = NotesDateFormatter(
            locale: Locale(identifier: "en_GB"), timeZone: TimeZone(identifier: "UTC")!,
            now: { now.value })
        let h = Harness(notes: [.sample("Morning", minutesAgo: 78)], formatter: formatter)
        defer { h.stop() }
        try await h.start()
        #expect(h.state.rows.first?.date == "10:42")

        now.value = Harness.now.addingTimeInterval(86_400)
        h.notes.store(.sample("Next day"))
        try await h.waitUntil("the new list") { h.state.rows.count == 2 }
        #expect(h.state.rows.first { $0.title == "Morning" }?.date == "3 Mar 2025")
    }

    @Test func aFailedSyncKeepsTheRowsAndSaysWhenItLastSynced() async throws {
        let lastSynced = Harness.now.addingTimeInterval(-78 * 60)  // 10:42 UTC
        let h = Harness(
            notes: [.sample("Kept"), .sample("Also kept")],
            status: SyncStatus(lastSyncedAt: lastSynced))
        defer { h.stop() }
        try await h.start()

        h.status.set(
            SyncStatus(lastSyncedAt: lastSynced, lastRunFailed: true, lastError: "offline"))
        try await h.waitUntil("the problem") { h.state.syncProblem != nil }

        #expect(h.state.syncProblem == "Couldn't sync · last synced 10:42")
        #expect(h.state.rows.count == 2)
        #expect(h.state.empty == nil)
        #expect(h.state.statusLabel == "Couldn't sync")
    }

    @Test func aProblemFromAnotherDaySaysTheDayToo() {
        let problem = NotesViewState.syncProblem(
            SyncStatus(
                lastSyncedAt: Harness.now.addingTimeInterval(-2 * 86_400), lastRunFailed: true),
            formatter: Harness.formatter)
        #expect(problem == "Couldn't sync · last synced 1 Mar 2025 at 12:00")
    }

    @Test(arguments: [
        (SyncStatus(lastSyncedAt: Harness.now, isSyncing: true, conflictCount: 2), "2 conflicts"),
        (SyncStatus(conflictCount: 1), "1 conflict"),
        (SyncStatus(lastSyncedAt: Harness.now, isSyncing: true), "Syncing…"),
        (SyncStatus(lastSyncedAt: Harness.now, pendingCount: 3), "3 not synced"),
        (SyncStatus(lastSyncedAt: Harness.now), "Synced"),
        (SyncStatus(), "Not synced yet"),
    ])
    func statusLabelNamesTheMostUrgentState(status: SyncStatus, label: String) {
        #expect(NotesViewState.statusLabel(status, syncConfigured: true) == label)
    }

    @Test func countsComeFromTheStatus() async throws {
        let h = Harness(
            status: SyncStatus(lastSyncedAt: Harness.now, pendingCount: 4, conflictCount: 1))
        defer { h.stop() }
        try await h.start()
        try await h.waitUntil("the counts") { h.state.pendingCount == 4 }
        #expect(h.state.conflictCount == 1)
    }

    @Test func onDisappearEndsOnAppear() async throws {
        let h = Harness()
        let viewModel = h.viewModel
        let watch = Task { await viewModel.onAppear() }
        try await h.waitUntil("watching") { h.notes.subscriberCount == 1 }

        viewModel.onDisappear()
        await watch.value
        try await h.waitUntil("the stream released") { h.notes.subscriberCount == 0 }
    }
}

/// A "now" a test can move. `@unchecked Sendable`: `value` is only touched while holding `lock`.
private final class MovableNow: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ date: Date) { current = date }

    var value: Date {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }
}
