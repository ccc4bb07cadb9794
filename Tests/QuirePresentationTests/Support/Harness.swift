import Foundation
import QuireDomain
import Testing

@testable import QuirePresentation

/// A view model wired to in-memory repositories, a manual clock and a pinned formatter
/// (en_GB, UTC, "now" = 3 March 2025 12:00).
@MainActor
final class Harness {
    let notes: FakeNotesRepository
    let status: FakeSyncStatusRepository
    let sync = FakeSyncRequester()
    let clock = ManualClock()
    let viewModel: NotesViewModel
    private var watch: Task<Void, Never>?

    nonisolated static let now = Date(timeIntervalSince1970: 1_741_003_200)  // 2025-03-03 12:00 UTC
    nonisolated static let formatter = NotesDateFormatter(
        locale: Locale(identifier: "en_GB"), timeZone: TimeZone(identifier: "UTC")!,
        now: { Harness.now })

    init(
        notes: [Note] = [], status: SyncStatus = SyncStatus(lastSyncedAt: Harness.now),
        syncConfigured: Bool = true, formatter: NotesDateFormatter = Harness.formatter,
        pageSize: Int = 100
    ) {
        self.notes = FakeNotesRepository(notes)
        self.status = FakeSyncStatusRepository(status)
        viewModel = NotesViewModel(
            notes: self.notes, status: self.status, sync: sync, clock: clock, debounce: .milliseconds(500),
            syncConfigured: syncConfigured, dateFormatter: formatter, pageSize: pageSize)
    }

    var state: NotesViewState { viewModel.viewState }

    /// Starts `onAppear()` and waits until the first notes list is shown.
    func start() async throws {
        let viewModel = viewModel
        watch = Task { await viewModel.onAppear() }
        try await waitUntil("the first notes list") {
            !self.state.rows.isEmpty || self.state.empty != nil
        }
    }

    func stop() {
        watch?.cancel()
    }

    /// Selects the note and waits until the editor shows it (it is read in full first).
    func open(_ id: NoteID, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        viewModel.select(id)
        try await waitUntil("the note open", sourceLocation: sourceLocation) {
            self.state.editor?.id == id
        }
    }

    /// Waits, without sleeping, until `condition` holds; fails the test after `timeout`.
    ///
    /// The timeout is long on purpose: a view model starts its watches through the cooperative
    /// pool, which the parallel pass shares with a thousand other tests, some holding both of its
    /// threads for seconds (key derivations, merges, process waits). At 5 s, tests that pass alone
    /// in milliseconds timed out there (LazyListTests twice, 2026-12-01 and 12-02); a broken
    /// view model still fails, a minute later.
    func waitUntil(
        _ what: String, timeout: Duration = .seconds(60),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: @MainActor () -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now > deadline {
                Issue.record(
                    "timed out waiting for \(what); state: \(state)", sourceLocation: sourceLocation
                )
                throw TimedOut()
            }
            await Task.yield()
        }
    }

    /// Checks that `condition` keeps holding while the main actor gets `turns` chances to run
    /// whatever is queued (a woken debounce, a list on its way): the "and not before" half of a
    /// timing test, without sleeping.
    func expectStillHolds(
        _ what: String, turns: Int = 200, sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: @MainActor () -> Bool
    ) async {
        for _ in 0..<turns {
            guard condition() else {
                Issue.record(
                    "no longer true: \(what); state: \(state)", sourceLocation: sourceLocation)
                return
            }
            await Task.yield()
        }
    }

    struct TimedOut: Error {}
}

extension Note {
    /// A stored note for tests, dated `minutesAgo` before `Harness.now`.
    static func sample(
        _ title: String, _ body: String = "", sync: NoteSyncState = .synced, minutesAgo: Double = 0,
        id: NoteID = NoteID(), conflictOf: NoteID? = nil
    ) -> Note {
        Note(
            id: id, title: title, body: body,
            updatedAt: Harness.now.addingTimeInterval(-minutesAgo * 60), sync: sync,
            conflictOf: conflictOf)
    }
}
