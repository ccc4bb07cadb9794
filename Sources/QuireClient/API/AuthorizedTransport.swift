import Foundation
import QuireWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What every API client of the device shares: an ``HTTPTransport`` with a bearer token, one
/// refresh after a 401, and one mapping of statuses and transport failures to ``NotesAPIError``
/// (named for the notes, where it began; the trips client answers with it too).
///
/// Cancelling the caller cancels the request (`CancellationError`).
public struct AuthorizedTransport: Sendable {
    let transport: HTTPTransport
    let tokens: AccessTokenProvider

    public init(transport: HTTPTransport, tokens: AccessTokenProvider) {
        self.transport = transport
        self.tokens = tokens
    }

    /// Sends with the current token; on a 401, once more with a refreshed one.
    /// - Throws: ``NotesAPIError`` `.unauthorized` when signed out, `.unreachable` or `.transient`
    ///   when no answer came; `CancellationError` when the caller was cancelled.
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard let token = try await tokens.accessToken() else {
            throw NotesAPIError(kind: .unauthorized, message: "Signed out: sign in to sync.")
        }
        let first = try await send(request, token: token)
        guard first.status == 401 else { return first }
        guard let fresh = try await tokens.refreshedToken(after: token) else { return first }
        return try await send(request, token: fresh)
    }

    private func send(_ request: TransportRequest, token: String) async throws -> TransportResponse {
        var request = request
        request.headers["Authorization"] = "Bearer \(token)"
        request.headers["Accept"] = "application/json"
        do {
            return try await transport.send(request)
        } catch let error as URLError {
            if error.code == .cancelled { throw CancellationError() }
            throw NotesAPIError(
                kind: Self.unreachableCodes.contains(error.code) ? .unreachable : .transient,
                message: Self.describe(error))
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as NotesAPIError {
            throw error
        } catch {
            throw NotesAPIError(kind: .transient, message: "The request failed: \(error)")
        }
    }

    /// Transport failures that mean no connection at all (try later, when the network is back),
    /// as opposed to a request that failed on the way.
    static let unreachableCodes: Set<URLError.Code> = [
        .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet, .dnsLookupFailed,
    ]

    /// Transport failures that mean the server's certificate was not verified (or the CA file to
    /// verify it with could not be loaded): trying again will not help until the trust changes.
    static let untrustedCodes: Set<URLError.Code> = [
        .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
        .serverCertificateNotYetValid, .cannotOpenFile,
    ]

    /// `URLError -1202`, with the network library's own words when it gave some (for `--verbose`).
    static func detail(of error: URLError) -> String {
        let reason = error.userInfo[NSLocalizedDescriptionKey] as? String
        return "URLError \(error.code.rawValue)" + (reason.map { ": \($0)" } ?? "")
    }

    /// The body as `T`, or `.invalidResponse` naming the type (never the body: it may hold text).
    static func decode<T: Decodable>(_ type: T.Type, from response: TransportResponse) throws -> T {
        do {
            return try WireJSON.decoder().decode(type, from: response.body)
        } catch {
            throw NotesAPIError(
                kind: .invalidResponse, status: response.status,
                message: "The server's answer could not be read (\(T.self)).")
        }
    }

    /// Maps a non-success status to what the engine should do about it: 401 unauthorized, 410
    /// cursor expired, 408/429/5xx transient, any other 4xx (403, 404, 413, 422…) refused.
    static func failure(_ response: TransportResponse) -> NotesAPIError {
        let detail = try? WireJSON.decoder().decode(ErrorResponseDTO.self, from: response.body).error
        let message = detail?.message ?? "The server answered HTTP \(response.status)."
        let retryAfter = response.headers["retry-after"].flatMap { Double($0) }
        let kind: NotesAPIError.Kind
        switch response.status {
        case 401: kind = .unauthorized
        case 410: kind = .cursorExpired
        case 408, 429, 500...599: kind = .transient
        case 400...499: kind = .refused
        default: kind = .invalidResponse
        }
        return NotesAPIError(
            kind: kind, status: response.status, code: detail?.code, message: message,
            retryAfter: retryAfter)
    }

    private static func describe(_ error: URLError) -> String {
        switch error.code {
        case .timedOut: "The server did not answer in time."
        case .cannotConnectToHost, .cannotFindHost: "Could not reach the server."
        case .notConnectedToInternet, .networkConnectionLost: "The network is offline."
        case .appTransportSecurityRequiresSecureConnection:
            "Plain http:// is refused to a server that is not on this device; use https://."
        case .cannotOpenFile: "The certificate authority file to verify the server with could not be loaded."
        case let code where untrustedCodes.contains(code): "The server's certificate is not trusted."
        default: "The connection failed (\(error.code.rawValue))."
        }
    }

    /// `text` safe inside a query string.
    static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
