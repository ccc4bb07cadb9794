import Foundation
import QuireClient
import QuireLock

/// An ``HTTPTransport`` that forwards to another and counts the bytes each exchange puts on the
/// wire, approximating HTTP/1.1 framing: request line, `Host`, the headers sent, `Content-Length`,
/// the blank line and the body; then the status line, the headers received, the blank line and
/// the body. Headers libcurl adds on its own (`Accept-Encoding`, `User-Agent`) are not seen, so
/// the count is a slight underestimate.
final class CountingTransport: HTTPTransport {
    struct Exchange: Sendable {
        var method: String
        var path: String
        var requestBytes: Int
        var responseBytes: Int
        var responseBodyBytes: Int
        /// The bodies as sent and received, for benchmarks that check what travelled.
        var requestBody: Data
        var responseBody: Data
    }

    private let inner: HTTPTransport
    private let host: String
    private let log = Locked<[Exchange]>([])

    init(wrapping inner: HTTPTransport, host: String) {
        self.inner = inner
        self.host = host
    }

    var exchanges: [Exchange] { log.withLock { $0 } }

    /// Forgets what was counted so far.
    func reset() { log.withLock { $0.removeAll() } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await inner.send(request)
        var sent = "\(request.method) \(request.path) HTTP/1.1\r\nHost: \(host)\r\n".utf8.count
        for (name, value) in request.headers { sent += name.utf8.count + 2 + value.utf8.count + 2 }
        if let body = request.body { sent += "Content-Length: \(body.count)\r\n".utf8.count + body.count }
        sent += 2
        var received = "HTTP/1.1 \(response.status) OK\r\n".utf8.count
        for (name, value) in response.headers { received += name.utf8.count + 2 + value.utf8.count + 2 }
        received += 2 + response.body.count
        let exchange = Exchange(
            method: request.method, path: request.path, requestBytes: sent, responseBytes: received,
            responseBodyBytes: response.body.count, requestBody: request.body ?? Data(),
            responseBody: response.body)
        log.withLock { $0.append(exchange) }
        return response
    }
}
