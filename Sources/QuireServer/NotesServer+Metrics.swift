import Foundation

/// `GET /metrics`: the server's metrics in the Prometheus text format.
extension NotesServer {
    /// 200 with ``ServerMetrics/exposition(longPollWaiters:)`` as
    /// `text/plain; version=0.0.4`. Needs no token, so a deployment should keep the path off the
    /// public internet. The scrape itself is counted after it is answered, so it shows from the
    /// next scrape on.
    func metricsResponse() async -> HTTPResponse {
        let text = metrics.exposition(
            longPollWaiters: await liveUpdates.waiterCount)
        var headers = HTTPResponse.baseHeaders
        headers["Content-Type"] = ServerMetrics.contentType
        return HTTPResponse(status: 200, headers: headers, body: Data(text.utf8))
    }
}
