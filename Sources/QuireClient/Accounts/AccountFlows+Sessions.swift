import Foundation
import QuireWire

/// The account's signed-in devices (`quire sessions`): listing them, and signing one out.
extension AccountFlows {
    /// The account's live sessions, oldest first, this device's marked `current`.
    /// - Returns: the list, and `session` with new tokens if it was refreshed on the way.
    /// - Throws: ``AccountError``: `signedOut` (no tokens, or the refresh was refused: this
    ///   device's own session ended), `unreachable`, `transient`, `refused`, `invalidResponse`.
    public static func sessions(
        session: AccountSession, transport: HTTPTransport, now: @Sendable () -> Date = Date.init
    ) async throws -> (sessions: [SessionInfoDTO], session: AccountSession) {
        let accounts = AccountsAPIClient(transport: transport)
        var list: [SessionInfoDTO] = []
        let updated = try await withAccessToken(session, accounts: accounts, now: now) { token in
            list = try await accounts.sessions(accessToken: token).sessions
        }
        return (list, updated)
    }

    /// Signs the session `id` out on the server: its device's next request is refused and it
    /// must sign in again.
    /// - Returns: `session`, with new tokens if it was refreshed on the way.
    /// - Throws: ``AccountError``: as ``sessions(session:transport:now:)``, and `refused` (404)
    ///   when `id` is no live session of the account.
    public static func revokeSession(
        id: String, session: AccountSession, transport: HTTPTransport, now: @Sendable () -> Date = Date.init
    ) async throws -> AccountSession {
        let accounts = AccountsAPIClient(transport: transport)
        return try await withAccessToken(session, accounts: accounts, now: now) { token in
            try await accounts.revokeSession(id: id, accessToken: token)
        }
    }
}
