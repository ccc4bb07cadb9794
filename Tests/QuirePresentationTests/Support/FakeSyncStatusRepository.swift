import Foundation
import QuireDomain

/// An in-memory `SyncStatusRepository`: streams replay the current status, then each `set`.
///
/// `@unchecked Sendable`: every stored property is read and written only while holding `lock`.
final class FakeSyncStatusRepository: SyncStatusRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var current: SyncStatus
    private var subscribers: [UUID: AsyncStream<SyncStatus>.Continuation] = [:]

    init(_ status: SyncStatus = SyncStatus()) {
        current = status
    }

    func set(_ status: SyncStatus) {
        lock.withLock {
            current = status
            for subscriber in subscribers.values { subscriber.yield(status) }
        }
    }

    /// Ends every open status stream, as the database does when a read fails. Later
    /// subscriptions work again.
    func endStreams() {
        let ended = lock.withLock {
            let ended = subscribers.values
            subscribers = [:]
            return ended
        }
        for continuation in ended { continuation.finish() }
    }

    func status() -> AsyncStream<SyncStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: SyncStatus.self)
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
