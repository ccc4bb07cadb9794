import Foundation
import QuireDomain
import QuireWire

/// The note endpoints of API v1 over an ``HTTPTransport`` (seed 000 card 8).
///
/// Every status maps to a typed answer: 200/204 → accepted, 409 → conflict with the server copy,
/// and everything else → ``NotesAPIError`` by what the caller should do (transient, unauthorized,
/// cursor expired, refused). On a 401 it asks the token provider for a fresh token once and retries.
/// Cancelling the caller cancels the request.
public struct NotesAPIClient: NotesAPI {
    let http: AuthorizedTransport
    /// Added to `wait` for a long-poll's timeout, so the server answers before the client gives up.
    let requestTimeout: TimeInterval

    public init(transport: HTTPTransport, tokens: AccessTokenProvider, requestTimeout: TimeInterval = 30) {
        self.http = AuthorizedTransport(transport: transport, tokens: tokens)
        self.requestTimeout = requestTimeout
    }

    // MARK: - NotesAPI

    public func changes(
        since cursor: Cursor?, known: [Cursor], limit: Int, wait: Int, omittingOwnPayloads: Bool
    ) async throws -> ChangesPageDTO {
        var query = ["limit=\(limit)"]
        if let cursor { query.append("since=\(Self.percentEncoded(cursor.rawValue))") }
        if !known.isEmpty {
            query.append("known=\(Self.percentEncoded(known.map(\.rawValue).joined(separator: ",")))")
        }
        if wait > 0 { query.append("wait=\(wait)") }
        if omittingOwnPayloads { query.append("ownPayloads=omit") }
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
            return .accepted(
                version: answer.version, feed: feed, tag: answer.versionTag,
                replayed: response.headers["idempotent-replayed"] == "true")
        case 409:
            let conflict = try Self.decode(ConflictResponseDTO.self, from: response)
            return .conflict(conflict.note, baseKnown: conflict.baseKnown)
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
            // A replay (the first send's answer was lost) lets a copy a pull skipped meanwhile
            // apply: another device wrote after the delete (seed 3395).
            return .accepted(version: nil, replayed: response.headers["idempotent-replayed"] == "true")
        case 409:
            let conflict = try Self.decode(ConflictResponseDTO.self, from: response)
            return .conflict(conflict.note, baseKnown: conflict.baseKnown)
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
                return .success(
                    .accepted(
                        version: result.version, feed: feed, tag: result.versionTag, replayed: result.replayed == true))
            case 409:
                guard let note = result.note else {
                    return .failure(
                        NotesAPIError(
                            kind: .invalidResponse, status: 409, message: "A conflict without the server's copy."))
                }
                return .success(.conflict(note, baseKnown: result.baseKnown))
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

    private func authorized(_ request: TransportRequest) async throws -> TransportResponse {
        try await http.send(request)
    }

    private static func decode<T: Decodable>(_ type: T.Type, from response: TransportResponse) throws -> T {
        try AuthorizedTransport.decode(type, from: response)
    }

    /// Maps a non-success status to what the engine should do about it.
    static func failure(_ response: TransportResponse) -> NotesAPIError {
        AuthorizedTransport.failure(response)
    }

    private static func percentEncoded(_ text: String) -> String {
        AuthorizedTransport.percentEncoded(text)
    }
}
