import Foundation

/// Wakes long-polling changes requests when their account commits a change.
///
/// Race-free by tickets: a request takes ``ticket(for:)`` *before* it reads the feed, and
/// ``wait(for:after:timeout:)`` returns at once if a change was announced since. Writers call
/// ``changed(_:)`` only after their transaction committed, so a woken request always finds the change.
actor ChangeNotifier {
    private struct Waiter {
        let continuation: CheckedContinuation<Void, Never>
        let timer: Task<Void, Never>
    }

    private var generations: [AccountID: UInt64] = [:]
    /// Bumped by ``wakeAll()``: part of every account's ticket, so a request between its ticket
    /// and its wait is woken too.
    private var epoch: UInt64 = 0
    private var waiters: [AccountID: [UUID: Waiter]] = [:]
    /// True once ``shutDown()`` ran: waits return at once.
    private(set) var isShutDown = false

    /// The account's change count so far; pass it to ``wait(for:after:timeout:)``.
    func ticket(for account: AccountID) -> UInt64 {
        generations[account, default: 0] &+ epoch
    }

    /// Suspends until the account changes after `ticket`, `timeout` passes, the notifier shuts down,
    /// or the calling task is cancelled, whichever comes first. Returns at once if the account
    /// already changed or the notifier is shut down.
    ///
    /// Returns false, at once and without waiting, when the account already has `limit` waiters
    /// (the caller answers with `Retry-After`); true otherwise. A cancelled waiter leaves the count
    /// as soon as the cancellation is handled.
    @discardableResult
    func wait(
        for account: AccountID, after ticket: UInt64, timeout: Duration, limit: Int = .max
    ) async -> Bool {
        if isShutDown || self.ticket(for: account) > ticket { return true }
        if waiters[account]?.count ?? 0 >= limit { return false }
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let timer = Task {
                    try? await Task.sleep(for: timeout)
                    self.resume(account, id)
                }
                waiters[account, default: [:]][id] = Waiter(
                    continuation: continuation, timer: timer)
                // The cancellation handler may have run before the waiter existed.
                if Task.isCancelled { resume(account, id) }
            }
        } onCancel: {
            Task { await self.resume(account, id) }
        }
        return true
    }

    /// Announces a committed change for `account`: every request waiting on it resumes.
    func changed(_ account: AccountID) {
        generations[account, default: 0] &+= 1
        guard let accountWaiters = waiters.removeValue(forKey: account) else { return }
        for waiter in accountWaiters.values {
            waiter.timer.cancel()
            waiter.continuation.resume()
        }
    }

    /// Resumes every waiter, as if every account changed: when changes may have been missed (the
    /// cross-instance listener reconnected), so each re-reads its feed.
    func wakeAll() {
        epoch &+= 1
        let all = waiters
        waiters = [:]
        for waiter in all.values.flatMap(\.values) {
            waiter.timer.cancel()
            waiter.continuation.resume()
        }
    }

    /// Resumes every waiter at once; later waits return immediately. Used when the server stops.
    func shutDown() {
        isShutDown = true
        wakeAll()
    }

    /// The number of requests waiting now, for tests and logs.
    var waiterCount: Int {
        waiters.values.reduce(0) { $0 + $1.count }
    }

    private func resume(_ account: AccountID, _ id: UUID) {
        guard let waiter = waiters[account]?.removeValue(forKey: id) else { return }
        if waiters[account]?.isEmpty == true { waiters[account] = nil }
        waiter.timer.cancel()
        waiter.continuation.resume()
    }
}
