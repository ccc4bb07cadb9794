import Foundation
import QuireDomain

// MARK: - Watching the list and the status

extension NotesViewModel {
    /// Watches both streams and keeps `viewState` current. Returns when the caller's task is
    /// cancelled (SwiftUI's `.task`) or `onDisappear()` is called. Calling it again while watching
    /// stops the earlier watch.
    public func onAppear() async {
        watching?.cancel()
        let watch = Task { await self.watch() }
        watching = watch
        await withTaskCancellationHandler {
            await watch.value
        } onCancel: {
            watch.cancel()
        }
    }

    /// Stops watching and saves a dirty draft: leaving the screen is leaving the note.
    public func onDisappear() {
        watching?.cancel()
        watching = nil
        saveDraft()
    }

    private func watch() async {
        let summaryStream = notesRepository.summaries()
        let statusStream = statusRepository.status()
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await list in summaryStream { await self.receive(list) }
            }
            group.addTask {
                for await status in statusStream { await self.receive(status) }
            }
        }
    }

    /// Takes in the latest list. The open note is read again only if its own summary changed; a
    /// note gone from the list needs no read to know it is gone.
    private func receive(_ list: [NoteSummary]) {
        summaries = list
        rows = makeRows(list)
        if let openID = draft?.id ?? opening {
            let summary = list.first { $0.id == openID }
            if summary == nil {
                readGeneration += 1  // a read in flight is older than this list
                if opening == openID {
                    opening = nil
                } else {
                    reconcileDraft(with: nil)
                }
            } else if summary != openSummary {
                requestRead()
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
