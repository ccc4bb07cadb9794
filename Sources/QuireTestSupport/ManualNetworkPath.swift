import Foundation
import QuireClient

/// A ``NetworkPath`` the test switches on and off by hand.
public final class ManualNetworkPath: NetworkPath, @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var online: Bool
    private var subscribers: [UUID: AsyncStream<Bool>.Continuation] = [:]
    private var failures = 0

    public init(online: Bool = true) {
        self.online = online
    }

    public func updates() -> AsyncStream<Bool> {
        AsyncStream { continuation in
            let id = UUID()
            let current: Bool = lock.withLock {
                subscribers[id] = continuation
                return online
            }
            continuation.yield(current)
            continuation.onTermination = { [weak self] _ in
                _ = self?.lock.withLock { self?.subscribers.removeValue(forKey: id) }
            }
        }
    }

    public func connectionFailed() async {
        lock.withLock { failures += 1 }
    }

    /// How often the controller reported a failed connection.
    public var reportedFailures: Int { lock.withLock { failures } }

    public func set(online: Bool) {
        let targets: [AsyncStream<Bool>.Continuation] = lock.withLock {
            self.online = online
            return Array(subscribers.values)
        }
        for continuation in targets { continuation.yield(online) }
    }
}
