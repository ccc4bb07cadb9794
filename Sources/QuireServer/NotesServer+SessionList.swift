import Foundation
import QuireCrypto
import QuireWire

/// The account's list of its sessions (one per signed-in device) and signing one of them out
/// from another device: `GET /v1/sessions`, `DELETE /v1/sessions/{id}`.
extension NotesServer {
    /// `GET /v1/sessions`: the account's sessions that are neither revoked nor ended, oldest
    /// first, the request's own marked `current`.
    func listSessions(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await authenticate(request)
        let (sessions, idOf) = try await liveSessions(of: session.account)
        return .json(
            200,
            SessionListDTO(
                sessions: sessions.map { stored in
                    SessionInfoDTO(
                        id: idOf(stored.id), deviceName: stored.deviceName, createdAt: stored.startedAt,
                        lastUsedAt: stored.lastUsedAt, current: stored.id == session.session)
                }))
    }

    /// `DELETE /v1/sessions/{id}`: 204; that session's tokens stop working at once, so its
    /// device's next request is 401 and its refresh is refused. 400 for an id that is not 16
    /// lowercase hex digits, 404 for one that is no live session of this account. The request's
    /// own session may be named: that is a sign-out.
    func revokeSession(_ request: HTTPRequest, id rawID: String) async throws -> HTTPResponse {
        let session = try await authenticate(request)
        let id = try RequestValidation.sessionID(rawID)
        let (sessions, idOf) = try await liveSessions(of: session.account)
        guard let target = sessions.first(where: { idOf($0.id) == id }) else {
            throw APIError.notFound(
                "This account has no session \(id); GET /v1/sessions lists the signed-in devices.")
        }
        try await storage.revokeSession(target.id)
        return .empty(204)
    }

    /// The account's live sessions, and how each one's public id is made: the first 8 bytes of
    /// HMAC-SHA256(server secret, the stored id), in hex, so an id says nothing of how many
    /// sessions the server has had, and a guess names no other account's session.
    private func liveSessions(of account: AccountID) async throws
        -> (sessions: [StoredSession], id: @Sendable (SessionID) -> String)
    {
        let sessions = try await storage.sessions(
            account: account, expiry: configuration.sessionLifetime.expiry(at: now()))
        let secret = try await storage.serverSecret()
        return (
            sessions,
            { id in
                HexText.string(
                    HMAC.sha256(key: secret, data: Data("session \(id.rawValue)".utf8))
                        .prefix(WireRoutes.sessionIDLength / 2))
            }
        )
    }
}
