import Foundation

/// Request counts and latency histograms per route, rendered at `GET /metrics` in the Prometheus
/// text format (version 0.0.4).
///
/// Thread-safe: the libmicrohttpd host calls ``NotesServer/handle(_:)`` from many threads, and
/// each request costs one short lock around a few dictionary updates. Labels are only route
/// templates (`/v1/notes/{id}`, never the id; unknown paths are `other`), a method from a fixed
/// set and the status code the server chose, so no note text, title, key, username, token or
/// header value can reach a metric, and a client cannot grow the number of series.
///
/// `/metrics` needs no token: a deployment should not expose it publicly (serve it on a private
/// network, or block the path at the reverse proxy).
final class ServerMetrics: @unchecked Sendable {
    // @unchecked: every stored property below `lock` is read and written only while holding it.
    // (NSLock rather than `Mutex`, which needs macOS 15 and the package builds for macOS 14.)

    /// The path the metrics are served at.
    static let path = "/metrics"
    /// The Prometheus text exposition format's content type.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"
    /// The server version reported by `quire_build_info`.
    static let version = "0.1.0"

    /// One counter series of `quire_http_requests_total`.
    struct RequestSeries: Hashable, Sendable {
        let route: String
        let method: String
        let status: Int
    }

    /// One histogram series of `quire_http_request_duration_seconds`.
    struct LatencySeries: Hashable, Sendable {
        let route: String
        let method: String
    }

    /// Everything ``ServerMetrics`` has counted, copied out of the lock for rendering.
    struct Snapshot: Sendable {
        var requests: [RequestSeries: UInt64] = [:]
        var latencies: [LatencySeries: Histogram] = [:]
        var inFlight = 0
    }

    let version: String
    private let bounds: [Double]
    private let lock = NSLock()
    private var state = Snapshot()

    /// Empty metrics reporting `version`, with latency buckets `bounds` (ascending, in seconds).
    init(version: String = ServerMetrics.version, bounds: [Double] = Histogram.defaultBounds) {
        self.version = version
        self.bounds = bounds
    }

    // MARK: - Recording

    /// Counts a request as in flight until its ``record(_:status:duration:)``.
    func requestStarted() {
        lock.withLock { state.inFlight += 1 }
    }

    /// Records one answered request: its route template and method label come from `request`
    /// (never its raw path, query, headers or body), its status and how long it took.
    /// Ends the in-flight count ``requestStarted()`` began.
    func record(_ request: HTTPRequest, status: Int, duration: Duration) {
        record(
            route: Self.routeTemplate(for: request.path), method: Self.methodLabel(request.method),
            status: status, seconds: duration.seconds, endsInFlight: true)
    }

    /// Records one request with labels already reduced to a template and a method label.
    func record(
        route: String, method: String, status: Int, seconds: Double, endsInFlight: Bool = false
    ) {
        let requestKey = RequestSeries(route: route, method: method, status: status)
        let latencyKey = LatencySeries(route: route, method: method)
        lock.withLock {
            state.requests[requestKey, default: 0] &+= 1
            state.latencies[latencyKey, default: Histogram(bounds: bounds)].observe(seconds)
            if endsInFlight { state.inFlight -= 1 }
        }
    }

    /// A copy of everything counted so far.
    func snapshot() -> Snapshot {
        lock.withLock { state }
    }
}

extension Duration {
    /// This duration in seconds, as the exposition format writes times.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
