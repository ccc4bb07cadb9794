import Foundation
import QuireWire

/// One HTTP response from the core: status, headers and the whole body.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        if let exact = headers[name] { return exact }
        let wanted = name.lowercased()
        return headers.first { $0.key.lowercased() == wanted }?.value
    }

    // MARK: - Building

    /// Notes are personal data: no shared cache may keep any answer (seed 000).
    static let baseHeaders = ["Cache-Control": "no-store"]

    /// A JSON answer: `body` is already JSON, sent as `application/json`.
    static func json(_ status: Int, body: Data) -> HTTPResponse {
        var headers = baseHeaders
        headers["Content-Type"] = "application/json"
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// A JSON answer encoded with ``WireJSON``.
    static func json<T: Encodable>(_ status: Int, _ value: T) -> HTTPResponse {
        json(status, body: WireJSON.encode(value))
    }

    /// An answer with no body (204).
    static func empty(_ status: Int) -> HTTPResponse {
        HTTPResponse(status: status, headers: baseHeaders)
    }

    /// A long-poll past its account's cap: the current (empty) page at once, with `Retry-After`
    /// set to the wait the client asked for, so a client that retries after it polls no more
    /// often than one whose poll timed out.
    static func longPollRefused<T: Encodable>(_ page: T, wait: Int) -> HTTPResponse {
        var response = json(200, page)
        response.headers["Retry-After"] = "\(max(1, wait))"
        return response
    }

    /// The error shape of DESIGN.md: `{"error": {"code", "message"}}`.
    static func error(_ error: APIError) -> HTTPResponse {
        var response = json(
            error.status, ErrorResponseDTO(code: error.code, message: error.message))
        if error.status == 401 { response.headers["WWW-Authenticate"] = "Bearer" }
        if error.status == 405, let allow = error.allow { response.headers["Allow"] = allow }
        if let seconds = error.retryAfter { response.headers["Retry-After"] = "\(seconds)" }
        return response
    }
}
