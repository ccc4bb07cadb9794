import Foundation
import QuireDomain

// MARK: - Watching the list and the status

extension NotesViewModel {
    /// Watches both streams and keeps `viewState` current. Returns when the caller's task is
    /// cancelled (SwiftUI's `.task`) or `onDisappear()` is called. Calling it again while watching
    /// stops the earlier watch.
    ///
    /// A stream that ends while watching (the database ends its streams when a read fails) is
    /// shown as `readProblem`, the rows and status kept, and subscribed to again after
    /// ``resubscribeDelay(afterFailures:)`` on the injected clock.
    public func onAppear() async {
        watching?.cancel()
        let watch = Task { await self.watch() }
        watching = watch
        await ResubscribingWatch.wait(for: watch)
    }

    /// Stops watching and saves a dirty draft: leaving the screen is leaving the note.
    public func onDisappear() {
        watching?.cancel()
        watching = nil
        saveDraft()
    }

    private func watch() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.watchList() }
            group.addTask { await self.watchStatus() }
        }
    }

    /// Follows the list's window; ``showMore()`` ends the subscription to the current window
    /// (not a failure), and the next one asks for the larger one.
    private func watchList() async {
        while !Task.isCancelled {
            let limit = listLimit
            let run = Task {
                await keepWatching(
                    subscribe: { self.notesRepository.summaries(first: limit) },
                    receive: { self.receive($0) },
                    down: { self.listFailure = $0 ? "Couldn't read your notes; trying again" : nil })
            }
            listRun = run
            await ResubscribingWatch.wait(for: run)
        }
        listRun = nil
    }

    private func watchStatus() async {
        await keepWatching(
            subscribe: { self.statusRepository.status() }, receive: { self.receive($0) },
            down: { self.statusFailure = $0 ? "Couldn't read the sync status; trying again" : nil })
    }

    /// Follows one stream until the task is cancelled, subscribing again whenever it ends. `down`
    /// is told when the stream ends (true) and when a value arrives after that (false).
    private func keepWatching<Value: Sendable>(
        subscribe: () -> AsyncStream<Value>, receive: (Value) -> Void, down: (Bool) -> Void
    ) async {
        await ResubscribingWatch.follow(
            subscribe: subscribe, receive: receive,
            down: { isDown in
                down(isDown)
                if isDown { self.publish() }
            }, sleep: sleep)
    }

    /// How long to wait before subscribing again after a stream ended `failures` times in a row:
    /// 1 s, doubling, at most 30 s.
    nonisolated static func resubscribeDelay(afterFailures failures: Int) -> Duration {
        ResubscribingWatch.delay(afterFailures: failures)
    }

    /// Takes in the latest window of the list. The open note is read again only if its own summary
    /// changed, or while it is in conflict (whether its copies still are is read with it, and the
    /// window may not show them); a note gone from a list that holds every note needs no read to know it is gone,
    /// but one outside a window may only have moved below it, so it is read by id (one row) with
    /// each window that lacks it, to know.
    private func receive(_ window: NoteListWindow) {
        let list = window.summaries
        summaries = list
        hasMoreRows = window.hasMore
        rows = makeRows(list)
        if let openID = draft?.id ?? opening {
            let summary = list.first { $0.id == openID }
            if summary == nil, window.hasMore {
                requestRead()
            } else if summary == nil {
                readGeneration += 1  // a read in flight is older than this list
                if opening == openID {
                    opening = nil
                } else {
                    reconcileDraft(with: nil)
                }
            } else if summary != openSummary || openInConflict {
                requestRead()  // In conflict: its copy, maybe outside the window, may have gone.
            }
            openSummary = summary
        }
        publish()
    }

    private func makeRows(_ list: [NoteSummary]) -> [NoteRow] {
        let today = formatter.today()
        let cache = rowCacheDay == today ? rowCache : [:]
        var next: [NoteID: (summary: NoteSummary, row: NoteRow)] = [:]
        next.reserveCapacity(list.count)
        let rows = list.map { summary in
            let row =
                cache[summary.id].flatMap { $0.summary == summary ? $0.row : nil }
                ?? NoteRow(summary, formatter: formatter)
            next[summary.id] = (summary, row)
            return row
        }
        rowCache = next
        rowCacheDay = today
        return rows
    }

    private func receive(_ status: SyncStatus) {
        self.status = status
        publish()
    }
}
