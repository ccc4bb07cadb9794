import Foundation
import QuireDomain
import QuireWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The note endpoints of API v1 over an ``HTTPTransport`` (seed 000 card 8).
///
/// Every status maps to a typed answer: 200/204 → accepted, 409 → conflict with the server copy,
/// and everything else → ``NotesAPIError`` by what the caller should do (transient, unauthorized,
/// cursor expired, refused). On a 401 it asks the token provider for a fresh token once and retries.
/// Cancelling the caller cancels the request.
public struct NotesAPIClient: NotesAPI {
    private let transport: HTTPTransport
    private let tokens: AccessTokenProvider
    /// Added to `wait` for a long-poll's timeout, so the server answers before the client gives up.
    private let requestTimeout: TimeInterval

    public init(transport: HTTPTransport, tokens: AccessTokenProvider, requestTimeout: TimeInterval = 30) {
        self.transport = transport
        self.tokens = tokens
        self.requestTimeout = requestTimeout
    }

    // MARK: - NotesAPI

    public func changes(since cursor: Cursor?, limit: Int, wait: Int) async throws -> ChangesPageDTO {
        var query = ["limit=\(limit)"]
        if let cursor { query.append("since=\(Self.percentEncoded(cursor.rawValue))") }
        if wait > 0 { query.append("wait=\(wait)") }
        let request = TransportRequest(
            method: "GET", path: WireRoutes.changes + "?" + query.joined(separator: "&"),
            timeout: requestTimeout + TimeInterval(wait))
        let response = try await authorized(request)
        guard response.status == 200 else { throw Self.failure(response) }
        return try Self.decode(ChangesPageDTO.self, from: response)
    }

    public func put(
        _ id: NoteID, payload: String, baseVersion: Int?, baseVersionTag: String?, change: ChangeID
    ) async throws -> WriteOutcome {
        let body = WireJSON.encode(
            PutNoteRequestDTO(
                payload: payload, baseVersion: baseVersion,
                baseVersionTag: baseVersion == nil ? nil : baseVersionTag))
        let request = TransportRequest(
            method: "PUT", path: WireRoutes.note(id.description),
            headers: [
                "Content-Type": "application/json",
                WireRoutes.idempotencyKeyHeader: change.description,
            ],
            body: body, timeout: requestTimeout)
        let response = try await authorized(request)
        switch response.status {
        case 200, 201:
            let answer = try Self.decode(PutNoteResponseDTO.self, from: response)
            let feed = answer.cursor.flatMap { next in
                answer.previousCursor.map { FeedStep(previous: Cursor($0), next: Cursor(next)) }
            }
            return .accepted(version: answer.version, feed: feed, tag: answer.versionTag)
        case 409:
            return .conflict(try Self.decode(ConflictResponseDTO.self, from: response).note)
        default:
            throw Self.failure(response)
        }
    }

    public func delete(_ id: NoteID, baseVersion: Int, baseVersionTag: String?, change: ChangeID)
        async throws -> WriteOutcome
    {
        let tagQuery = baseVersionTag.map { "&baseVersionTag=\($0)" } ?? ""
        let request = TransportRequest(
            method: "DELETE",
            path: WireRoutes.note(id.description) + "?baseVersion=\(baseVersion)" + tagQuery,
            headers: [WireRoutes.idempotencyKeyHeader: change.description], timeout: requestTimeout)
        let response = try await authorized(request)
        switch response.status {
        case 200, 204:
            return .accepted(version: nil)
        case 409:
            return .conflict(try Self.decode(ConflictResponseDTO.self, from: response).note)
        default:
            throw Self.failure(response)
        }
    }

    public func batch(_ changes: [BatchChangeDTO]) async throws -> [Result<WriteOutcome, NotesAPIError>] {
        let request = TransportRequest(
            method: "POST", path: WireRoutes.batch, headers: ["Content-Type": "application/json"],
            body: WireJSON.encode(BatchRequestDTO(changes: changes)), timeout: requestTimeout)
        let response = try await authorized(request)
        guard response.status == 200 else { throw Self.failure(response) }
        let answer = try Self.decode(BatchResponseDTO.self, from: response)
        guard answer.results.count == changes.count else {
            throw NotesAPIError(
                kind: .invalidResponse, status: 200, message: "The server answered a batch with the wrong count.")
        }
        return answer.results.map { result in
            switch result.status {
            case 200, 201, 204:
                let feed = result.cursor.flatMap { next in
                    result.previousCursor.map { FeedStep(previous: Cursor($0), next: Cursor(next)) }
                }
                return .success(.accepted(version: result.version, feed: feed, tag: result.versionTag))
            case 409:
                guard let note = result.note else {
                    return .failure(
                        NotesAPIError(
                            kind: .invalidResponse, status: 409, message: "A conflict without the server's copy."))
                }
                return .success(.conflict(note))
            default:
                return .failure(
                    Self.failure(
                        TransportResponse(
                            status: result.status,
                            body: result.error.map {
                                WireJSON.encode(ErrorResponseDTO(code: $0.code, message: $0.message))
                            }
                                ?? Data())))
            }
        }
    }

    // MARK: - Plumbing

    /// Sends with the current token; on a 401, once more with a refreshed one.
    private func authorized(_ request: TransportRequest) async throws -> TransportResponse {
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
            let unreachable: Set<URLError.Code> = [
                .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet, .dnsLookupFailed,
            ]
            throw NotesAPIError(
                kind: unreachable.contains(error.code) ? .unreachable : .transient,
                message: Self.describe(error))
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as NotesAPIError {
            throw error
        } catch {
            throw NotesAPIError(kind: .transient, message: "The request failed: \(error)")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from response: TransportResponse) throws -> T {
        do {
            return try WireJSON.decoder().decode(type, from: response.body)
        } catch {
            throw NotesAPIError(
                kind: .invalidResponse, status: response.status,
                message: "The server's answer could not be read (\(T.self)).")
        }
    }

    /// Maps a non-success status to what the engine should do about it.
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
        default: "The connection failed (\(error.code.rawValue))."
        }
    }

    private static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
