import Foundation

/// Consumes a stream in the background, keeps every value it got, and lets a test wait, with a
/// deadline, for the stream's latest value to satisfy a condition. No sleeping: a waiter is woken
/// by the value itself.
actor StreamRecorder<Element: Sendable> {
    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    private struct Waiter {
        var predicate: @Sendable (Element) -> Bool
        var continuation: CheckedContinuation<Element, any Error>
        var deadline: Task<Void, Never>
    }

    /// Every value received, in order.
    private(set) var values: [Element] = []
    private(set) var isFinished = false
    private var waiters: [UUID: Waiter] = [:]
    private var consumer: Task<Void, Never>?

    /// Starts consuming `stream`.
    static func start(_ stream: AsyncStream<Element>) async -> StreamRecorder {
        let recorder = StreamRecorder()
        await recorder.consume(stream)
        return recorder
    }

    private func consume(_ stream: AsyncStream<Element>) {
        consumer = Task {
            for await value in stream { record(value) }
            finish()
        }
    }

    /// The latest value if it satisfies `predicate`, else the next one that does.
    ///
    /// Throws `Timeout` if none does within `timeout`, or the stream ends first. The deadline task
    /// only bounds the wait (a value resumes it at once), so the bound is generous for a loaded machine.
    func waitFor(
        timeout: Duration = .seconds(60), _ predicate: @escaping @Sendable (Element) -> Bool
    ) async throws -> Element {
        if let latest = values.last, predicate(latest) { return latest }
        if isFinished { throw Timeout(description: "the stream ended") }
        let id = UUID()
        return try await withCheckedThrowingContinuation { continuation in
            let deadline = Task {
                try? await Task.sleep(for: timeout)
                self.expire(id)
            }
            waiters[id] = Waiter(
                predicate: predicate, continuation: continuation, deadline: deadline)
        }
    }

    /// Stops consuming: the stream sees its consumer cancelled. Returns once the consumer ended.
    func stop() async {
        consumer?.cancel()
        await consumer?.value
    }

    private func record(_ value: Element) {
        values.append(value)
        for (id, waiter) in waiters where waiter.predicate(value) {
            waiters[id] = nil
            waiter.deadline.cancel()
            waiter.continuation.resume(returning: value)
        }
    }

    private func finish() {
        isFinished = true
        for (id, waiter) in waiters {
            waiters[id] = nil
            waiter.deadline.cancel()
            waiter.continuation.resume(throwing: Timeout(description: "the stream ended"))
        }
    }

    private func expire(_ id: UUID) {
        guard let waiter = waiters.removeValue(forKey: id) else { return }
        waiter.continuation.resume(
            throwing: Timeout(description: "no matching value in time; got \(values.count) values"))
    }
}
