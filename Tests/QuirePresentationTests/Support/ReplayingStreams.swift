import Foundation

/// Streams for a fake repository: each new stream replays the current value, then every `set`;
/// `endAll()` ends every open stream, as the database does when a read fails (later streams work
/// again).
///
/// `@unchecked Sendable`: every stored property is read and written only while holding `lock`.
final class ReplayingStreams<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Value
    private var subscribers: [UUID: AsyncStream<Value>.Continuation] = [:]

    init(_ value: Value) {
        current = value
    }

    func set(_ value: Value) {
        lock.withLock {
            current = value
            for subscriber in subscribers.values { subscriber.yield(value) }
        }
    }

    func endAll() {
        let ended = lock.withLock {
            let ended = subscribers.values
            subscribers = [:]
            return ended
        }
        for continuation in ended { continuation.finish() }
    }

    func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        let key = UUID()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.subscribers.removeValue(forKey: key) }
        }
        lock.withLock {
            subscribers[key] = continuation
            continuation.yield(current)
        }
        return stream
    }
}
