import Foundation
import QuireLock

/// Tells when one note's body on a device first equals an expected text.
///
/// A reader of the device's notes stream calls ``offer(_:)`` with the note's body on each
/// emission; the benchmark calls ``expect(_:)`` before making the edit and then waits with
/// ``arrival(within:)``. The arrival instant is taken inside `offer`, the moment the stream
/// delivered the text, not when the waiting task got to run.
final class NoteArrivalWatcher: Sendable {
    private struct State {
        var expected: String?
        var arrival: ContinuousClock.Instant?
        var expired = false
        var waiter: CheckedContinuation<ContinuousClock.Instant?, Never>?
    }

    private let state = Locked(State())

    /// Starts looking for `body`; forgets any earlier arrival. Call before the edit is made.
    func expect(_ body: String) {
        state.withLock { state in
            state.expected = body
            state.arrival = nil
            state.expired = false
        }
    }

    /// The device's notes stream delivered `body` for the watched note.
    func offer(_ body: String) {
        let now = ContinuousClock.now
        let waiter = state.withLock { state -> CheckedContinuation<ContinuousClock.Instant?, Never>? in
            guard state.arrival == nil, let expected = state.expected, body == expected else { return nil }
            state.arrival = now
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: now)
    }

    /// When the expected body arrived, waiting for it up to `deadline`; nil if it did not arrive
    /// in time. One waiter at a time.
    func arrival(within deadline: Duration) async -> ContinuousClock.Instant? {
        let timeout = Task {
            do {
                try await Task.sleep(for: deadline)
            } catch {
                return
            }
            self.expire()
        }
        defer { timeout.cancel() }
        return await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> ContinuousClock.Instant?? in
                if let arrival = state.arrival { return .some(arrival) }
                if state.expired { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func expire() {
        let waiter = state.withLock { state -> CheckedContinuation<ContinuousClock.Instant?, Never>? in
            state.expired = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }
}
