import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPTransport`` over URLSession, against one server.
public final class URLSessionTransport: HTTPTransport {
    public let baseURL: URL
    private let session: URLSession

    /// - Parameter baseURL: the server, e.g. `http://127.0.0.1:8080` (no trailing path needed).
    public init(baseURL: URL, configuration: URLSessionConfiguration = .ephemeral) {
        self.baseURL = baseURL
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        self.session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + request.path) else {
            throw URLError(.badURL)
        }
        var urlRequest = URLRequest(url: url, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        // Bodies go in httpBody with data(for:): upload(for:from:) hides them from URLProtocol fakes.
        urlRequest.httpBody = request.body
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String {
                headers[key.lowercased()] = value
            }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: data)
    }
}

// URLSession is thread-safe; the class holds only immutable references.
extension URLSessionTransport: @unchecked Sendable {}
