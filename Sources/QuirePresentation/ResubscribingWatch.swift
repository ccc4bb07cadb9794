import Foundation

/// Follows a database stream for a screen: the database ends a stream when a read fails, so the
/// screen subscribes again after a pause that doubles with each failure in a row. The notes and
/// trip view models both watch this way.
@MainActor
enum ResubscribingWatch {
    /// Follows the stream `subscribe` makes until the task is cancelled, subscribing again whenever
    /// it ends, after ``delay(afterFailures:)`` on `sleep` (the view model's injected clock). `down`
    /// is told when the stream ends (true) and when a value arrives after that (false). Returns
    /// when the task is cancelled, also during the pause.
    static func follow<Value: Sendable>(
        subscribe: () -> AsyncStream<Value>, receive: (Value) -> Void, down: (Bool) -> Void,
        sleep: @Sendable (Duration) async throws -> Void
    ) async {
        var failures = 0
        while !Task.isCancelled {
            for await value in subscribe() {
                if failures > 0 {
                    failures = 0
                    down(false)
                }
                receive(value)
            }
            guard !Task.isCancelled else { return }
            failures += 1
            down(true)
            do {
                try await sleep(delay(afterFailures: failures))
            } catch {
                return
            }
        }
    }

    /// Waits for `watch` (a view model's watching task) to end; cancelling the caller cancels it.
    static func wait(for watch: Task<Void, Never>) async {
        await withTaskCancellationHandler {
            await watch.value
        } onCancel: {
            watch.cancel()
        }
    }

    /// How long to wait before subscribing again after a stream ended `failures` times in a row:
    /// 1 s, doubling, at most 30 s.
    nonisolated static func delay(afterFailures failures: Int) -> Duration {
        .seconds(min(1 << min(max(failures, 1) - 1, 5), 30))
    }
}
