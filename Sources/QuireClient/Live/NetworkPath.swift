import Foundation

/// Whether the network (or the server) can be reached: NWPathMonitor on Apple; on Linux a probe
/// of the server that notices when it is reachable again. A hint to try now, not a promise.
public protocol NetworkPath: Sendable {
    /// Replays the current state (true: online), then each change. Finishes when the caller's
    /// task is cancelled.
    func updates() -> AsyncStream<Bool>
    /// The sync controller could not reach the server: an implementation that probes starts
    /// probing now, and reports `true` once the server answers again.
    func connectionFailed() async
}

/// A path that is always online: for devices whose failures are handled by backoff alone.
public struct AlwaysOnlinePath: NetworkPath {
    public init() {}

    public func updates() -> AsyncStream<Bool> {
        AsyncStream { continuation in
            continuation.yield(true)
        }
    }

    public func connectionFailed() async {}
}
