import Foundation

/// Holding a feed read open until something arrives: the notes feed's and the trips feed's
/// `wait=`.
extension NotesServer {
    /// Reads a page with `read`; when it is empty and `wait` is above 0, holds it until the
    /// account's `feed` changes (then reads again), `wait` seconds pass, the server stops or the
    /// caller is cancelled, and answers the last page read.
    ///
    /// A wake-up is a hint, not the change: a woken poll reads again, and keeps waiting while the
    /// page is still empty (another device's change already read, or an echo of this instance's
    /// own write). On a store several instances share, it also reads again every
    /// ``NotesServerConfiguration/liveUpdateRecheck`` on its own, so a notification that never
    /// came delays the answer at most that long. Returns `refused` (and the page read) when the
    /// account already holds ``NotesServerConfiguration/longPollsPerAccount`` polls of this feed.
    func longPoll<Page: Sendable>(
        _ feed: ChangeFeed, account: AccountID, wait: Int, isEmpty: (Page) -> Bool,
        read: () async throws -> Page
    ) async throws -> (page: Page, refused: Bool) {
        let notifier = liveUpdates.notifier(for: feed)
        var ticket = await notifier.ticket(for: account)
        var page = try await read()
        guard wait > 0 else { return (page, false) }
        let deadline = ContinuousClock.now + .seconds(wait)
        var limit = configuration.longPollsPerAccount
        while isEmpty(page) {
            let left = deadline - ContinuousClock.now
            guard left > .zero, !Task.isCancelled, await !notifier.isShutDown else { break }
            let slice = recheck.map { min(left, $0) } ?? left
            guard await notifier.wait(for: account, after: ticket, timeout: slice, limit: limit) else {
                return (page, true)
            }
            // The poll holds its place: the cap counts polls, not their re-reads.
            limit = .max
            ticket = await notifier.ticket(for: account)
            page = try await read()
        }
        return (page, false)
    }
}
