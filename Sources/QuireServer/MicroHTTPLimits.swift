import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How many connections the libmicrohttpd host holds and for how long.
///
/// The host is an event loop (epoll) on `threads` threads; a connection costs a socket and a
/// small memory pool, not a thread, so the limits below are about sockets and fairness.
public struct MicroHTTPLimits: Sendable, Equatable {
    /// The most connections open at once, long-polls included. Clamped at start to what the
    /// process may open (`RLIMIT_NOFILE`, whose soft limit the host first raises to the hard one).
    public var maxConnections: Int = 10_000

    /// The most connections one client address may hold at once; 0 for no cap. One more is
    /// closed as soon as it is accepted. Default 128: a household or office behind one address
    /// holds a long-poll and a request or two per device.
    public var connectionsPerAddress: Int = 128

    /// Seconds a request may take to arrive whole (headers and body), counted from the moment
    /// the connection opened or its previous answer was sent; past it the connection is closed.
    /// This, not the idle timeout, ends a client that sends a byte now and then (slowloris), and
    /// an idle keep-alive connection. Default 30.
    public var requestDeadlineSeconds: Int = 30

    /// Seconds a connection may stay silent before libmicrohttpd closes it (default 60).
    public var idleTimeoutSeconds: Int = 60

    /// Event-loop threads (libmicrohttpd's thread pool). Default 2; the Swift core runs
    /// requests on its own concurrency pool, so these threads only move bytes.
    public var threads: Int = 2

    public init(
        maxConnections: Int = 10_000, connectionsPerAddress: Int = 128,
        requestDeadlineSeconds: Int = 30, idleTimeoutSeconds: Int = 60, threads: Int = 2
    ) {
        self.maxConnections = maxConnections
        self.connectionsPerAddress = connectionsPerAddress
        self.requestDeadlineSeconds = requestDeadlineSeconds
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.threads = threads
    }

    /// Sockets kept back from ``maxConnections`` for the database, the listener and logs.
    static let reservedDescriptors = 64

    /// Each connection's memory pool in libmicrohttpd (its read buffer, the request's headers, the
    /// answer's header lines), in bytes; libmicrohttpd's default is 32 KiB. Below 16 KiB, jemalloc
    /// packs the pools side by side in its small-object runs, as glibc's heap does; at 16 KiB and
    /// more each is a page-aligned allocation of its own, and the pages its two ends touch are
    /// never shared with a neighbour's: 2.5 KB more a waiting long-poll (docs/benchmarks.md,
    /// memory per waiter). Headers past the pool are refused by libmicrohttpd; a request of
    /// Quire's carries well under 2 KiB of them, and a body is read through the pool in pieces.
    static let connectionMemory = 14 * 1024

    /// Raises the open-files soft limit to the hard limit and returns the connection limit that
    /// fits under it: `maxConnections`, or fewer when the process may not open that many files.
    func effectiveConnectionLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return maxConnections }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let available = Int(clamping: limit.rlim_cur) - Self.reservedDescriptors
        return max(1, min(maxConnections, available))
    }
}
