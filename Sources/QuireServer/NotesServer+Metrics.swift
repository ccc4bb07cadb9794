import Foundation
import QuireCrypto

/// `GET /metrics`: the server's metrics in the Prometheus text format.
extension NotesServer {
    /// 200 with ``ServerMetrics/exposition(longPollWaiters:checkpoints:)`` as
    /// `text/plain; version=0.0.4`. Who may ask is ``authorizeMetrics(_:)``'s to say. The scrape
    /// itself is counted after it is answered, so it shows from the next scrape on.
    func metricsResponse() async -> HTTPResponse {
        let text = metrics.exposition(
            longPollWaiters: await liveUpdates.waiterCount,
            checkpoints: (storage as? SQLiteServerStorage)?.checkpoints?.counts)
        var headers = HTTPResponse.baseHeaders
        headers["Content-Type"] = ServerMetrics.contentType
        return HTTPResponse(status: 200, headers: headers, body: Data(text.utf8))
    }

    /// Metrics are not for the open internet (issue 12, 9): with a metrics token configured, only
    /// `Authorization: Bearer TOKEN` may scrape (401 otherwise, loopback included); without one,
    /// only a loopback client (403 otherwise).
    func authorizeMetrics(_ request: HTTPRequest) throws(APIError) {
        guard let token = configuration.metricsToken else {
            guard Self.isLoopback(request.remoteAddress) else { throw .metricsForbidden }
            return
        }
        let sent = RequestValidation.bearerToken(request) ?? ""
        guard ConstantTime.equals(Data(sent.utf8), Data(token.utf8)) else { throw .unauthorized }
    }

    /// Whether `address` (numeric, as the host reports it) is on loopback: 127.0.0.0/8, `::1`,
    /// or an IPv4 loopback address mapped into IPv6. An unknown (empty) address is not.
    static func isLoopback(_ address: String) -> Bool {
        let lowered = address.lowercased()
        let v4 = lowered.hasPrefix("::ffff:") ? String(lowered.dropFirst(7)) : lowered
        var parsed = in_addr()
        if inet_pton(AF_INET, v4, &parsed) == 1 { return v4.hasPrefix("127.") }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, lowered, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { $0.elementsEqual([UInt8](repeating: 0, count: 15) + [1]) }
    }
}
