#if canImport(Network)
    import Dispatch
    import Network
    import QuireClient

    /// The network path from NWPathMonitor, for the sync controller's "network back" trigger: a
    /// hint to try now, never a promise that the server answers (seed 000). A satisfied path is
    /// online; anything else (unsatisfied, or needing a connection first) is offline.
    struct PathMonitorNetworkPath: NetworkPath {
        /// Replays the current path (NWPathMonitor reports it right after starting), then each
        /// change. Cancelling the consumer cancels the monitor.
        func updates() -> AsyncStream<Bool> {
            let (stream, continuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(1))
            let handle = MonitorHandle()
            handle.monitor.pathUpdateHandler = { path in
                continuation.yield(path.status == .satisfied)
            }
            continuation.onTermination = { _ in handle.monitor.cancel() }
            handle.monitor.start(queue: DispatchQueue(label: "app.quire.network-path"))
            return stream
        }

        /// The controller's own backoff retries; the monitor reports when the path changes.
        func connectionFailed() async {}
    }

    /// Holds a monitor for the stream's termination handler.
    ///
    /// `@unchecked Sendable`: the monitor is set up before the stream is handed out, and afterwards
    /// only `cancel()` is called on it, which NWPathMonitor allows from any thread (its updates
    /// arrive on its own queue).
    private final class MonitorHandle: @unchecked Sendable {
        let monitor = NWPathMonitor()
    }
#endif
