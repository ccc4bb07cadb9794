import Foundation
import QuireDomain
import Testing

@testable import QuirePresentation

/// A database stream that ends (a read failed) never leaves the screen silently stale: the
/// failure shows, the rows stay, and the view model subscribes again after a bounded wait on the
/// injected clock.
@MainActor
struct StreamRecoveryTests {
    let note = Note.sample("Groceries", "eggs", minutesAgo: 5)
    let other = Note.sample("Trip", "tickets", minutesAgo: 10)

    @Test func anEndedListShowsTheFailureKeepsTheRowsAndRecovers() async throws {
        let h = Harness(notes: [note, other])
        defer { h.stop() }
        try await h.start()

        h.notes.endSummaryStreams()

        try await h.waitUntil("the failure shown") { h.state.readProblem != nil }
        #expect(h.state.readProblem == "Couldn't read your notes; trying again")
        #expect(h.state.rows.map(\.id) == [note.id, other.id])
        #expect(h.state.empty == nil)
        try await h.waitUntil("the retry waiting") { h.clock.sleeperCount == 1 }
        h.notes.store(.sample("Ideas", minutesAgo: 1))  // while nobody watches

        h.clock.advance(by: .seconds(1))

        try await h.waitUntil("recovered") { h.state.readProblem == nil && h.state.rows.count == 3 }
        #expect(h.notes.summarySubscriptions == 2)
    }

    @Test func aListThatKeepsFailingIsRetriedLessOften() async throws {
        let h = Harness(notes: [note])
        defer { h.stop() }
        try await h.start()
        h.notes.failSubscriptions(1)

        h.notes.endSummaryStreams()
        try await h.waitUntil("the first retry waiting") { h.clock.sleeperCount == 1 }
        h.clock.advance(by: .seconds(1))
        try await h.waitUntil("the second retry waiting") {
            h.notes.summarySubscriptions == 2 && h.clock.sleeperCount == 1
        }
        h.clock.advance(by: .milliseconds(1999))
        await h.expectStillHolds("no third try before 2 s") { h.notes.summarySubscriptions == 2 }
        #expect(h.state.readProblem == "Couldn't read your notes; trying again")

        h.clock.advance(by: .milliseconds(1))

        try await h.waitUntil("recovered") { h.state.readProblem == nil }
        #expect(h.notes.summarySubscriptions == 3)
        #expect(h.state.rows.map(\.id) == [note.id])
    }

    @Test(arguments: [(1, 1), (2, 2), (3, 4), (4, 8), (5, 16), (6, 30), (7, 30), (40, 30)])
    func theWaitBeforeSubscribingAgainDoublesUpToThirtySeconds(failures: Int, seconds: Int) {
        #expect(NotesViewModel.resubscribeDelay(afterFailures: failures) == .seconds(seconds))
    }

    @Test func anEndedStatusStreamShowsTheFailureAndRecovers() async throws {
        let h = Harness(notes: [note], status: SyncStatus(lastSyncedAt: Harness.now))
        defer { h.stop() }
        try await h.start()
        try await h.waitUntil("the status") { h.state.statusLabel == "Synced" }

        h.status.endStreams()

        try await h.waitUntil("the failure shown") { h.state.readProblem != nil }
        #expect(h.state.readProblem == "Couldn't read the sync status; trying again")
        #expect(h.state.statusLabel == "Synced")
        try await h.waitUntil("the retry waiting") { h.clock.sleeperCount == 1 }
        h.status.set(SyncStatus(lastSyncedAt: Harness.now, pendingCount: 2))

        h.clock.advance(by: .seconds(1))

        try await h.waitUntil("recovered") { h.state.readProblem == nil && h.state.pendingCount == 2 }
    }
}
