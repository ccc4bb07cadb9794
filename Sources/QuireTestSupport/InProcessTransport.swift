import Foundation
import QuireClient
import QuireServer

/// An ``HTTPTransport`` that hands each request straight to a ``NotesServer``'s handler core, in
/// process: the client and the server's real code with no sockets in between.
public struct InProcessTransport: HTTPTransport {
    public let server: NotesServer

    public init(server: NotesServer) {
        self.server = server
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try Task.checkCancellation()
        let response = await server.handle(Self.serverRequest(from: request))
        return TransportResponse(status: response.status, headers: response.headers, body: response.body)
    }

    /// Splits `path?query` and percent-decodes both, as an HTTP host would.
    static func serverRequest(from request: TransportRequest) -> HTTPRequest {
        let parts = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        var query: [String: String] = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = String(keyValue[0]).removingPercentEncoding ?? String(keyValue[0])
                let value = keyValue.count > 1 ? (String(keyValue[1]).removingPercentEncoding ?? "") : ""
                query[key] = value
            }
        }
        return HTTPRequest(
            method: request.method, path: path, query: query, headers: request.headers,
            body: request.body ?? Data(), remoteAddress: "127.0.0.1")
    }
}
