import Foundation

/// One HTTP request as the socket-free core sees it: no connection, no streaming, the whole body read.
public struct HTTPRequest: Sendable, Equatable {
    /// Upper-case method: `GET`, `PUT`, `DELETE`, …
    public var method: String
    /// The decoded path without the query string: `/v1/notes/changes`.
    public var path: String
    /// Decoded query items. A name given twice keeps its last value.
    public var query: [String: String]
    /// Header fields, names as the client sent them; read them with ``header(_:)``.
    public var headers: [String: String]
    public var body: Data
    /// The peer's address (`127.0.0.1`), for logs and the login throttle; empty when unknown.
    public var remoteAddress: String

    public init(
        method: String, path: String, query: [String: String] = [:],
        headers: [String: String] = [:], body: Data = Data(), remoteAddress: String = ""
    ) {
        self.method = method.uppercased()
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The value of header `name`, compared case-insensitively (`authorization` finds `Authorization`).
    public func header(_ name: String) -> String? {
        if let exact = headers[name] { return exact }
        let wanted = name.lowercased()
        return headers.first { $0.key.lowercased() == wanted }?.value
    }

    /// The query in one canonical text (`a=1&b=2`, sorted by name), so equal queries fingerprint equally.
    var canonicalQuery: String {
        query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    }
}
