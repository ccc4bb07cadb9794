import Foundation

/// One HTTP request, as the API client builds it: a path relative to the server's base URL.
public struct TransportRequest: Sendable, Equatable {
    public var method: String
    /// Path and query, e.g. `/v1/notes/changes?since=abc&limit=200`.
    public var path: String
    public var headers: [String: String]
    public var body: Data?
    /// How long to wait for the answer.
    public var timeout: TimeInterval

    public init(
        method: String, path: String, headers: [String: String] = [:], body: Data? = nil,
        timeout: TimeInterval = 30
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// An HTTP answer: every status, 4xx and 5xx included, is a response, not an error.
public struct TransportResponse: Sendable, Equatable {
    public var status: Int
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }
}

/// The network seam: the live one is URLSession; tests use the server's handler core in process,
/// or a fault-injecting twin.
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns whatever the server answered. Throws only when no answer came
    /// (timeout, refused connection, cancellation): `URLError` for the live transport.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}
