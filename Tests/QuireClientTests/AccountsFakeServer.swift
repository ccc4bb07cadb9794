import Foundation
import QuireClient
import QuireWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A tiny in-memory stand-in for the server's account routes, as an ``HTTPTransport``: it stores
/// accounts, issues single-use refresh tokens, answers 401/409/429 as API v1 says, and serves an
/// empty changes feed behind bearer auth so the notes client's 401 → refresh → retry can be seen.
///
/// Knobs for tests: `kdfOverride` (a hostile server's parameters), `unreachable`, `expireAccessTokens()`,
/// `holdRefreshes()` / `releaseRefreshes()` (to make refreshes overlap), and counters.
actor AccountsFakeServer: HTTPTransport {
    struct Account {
        var id: String
        var authKey: String
        var kdf: KDFParametersDTO
        var wrappedNotesKey: String
        var recovery: RecoveryMaterialDTO?
    }

    struct Session {
        var accountId: String
        var username: String
        var accessToken: String
        var refreshToken: String
    }

    /// Failed sign-ins in a row after which a username is throttled.
    static let throttleAfter = 3
    static let expiresIn = 900

    private(set) var accounts: [String: Account] = [:]
    private var sessions: [Session] = []
    private var failedLogins: [String: Int] = [:]
    private var nextToken = 0

    private(set) var requests: [TransportRequest] = []
    private(set) var refreshRequests = 0
    private(set) var notesRequests = 0
    var kdfOverride: KDFParametersDTO?
    var unreachable = false
    private var holding = false
    private var heldRefreshes: [CheckedContinuation<Void, Never>] = []

    func setKDFOverride(_ kdf: KDFParametersDTO?) { kdfOverride = kdf }
    func setUnreachable(_ value: Bool) { unreachable = value }

    /// Every access token stops working; refresh tokens still do.
    func expireAccessTokens() {
        for index in sessions.indices { sessions[index].accessToken = "expired-\(index)-\(UUID())" }
    }

    /// Every session of every account ends.
    func revokeAllSessions() { sessions.removeAll() }

    func holdRefreshes() { holding = true }
    var heldRefreshCount: Int { heldRefreshes.count }
    func releaseRefreshes() {
        holding = false
        for waiting in heldRefreshes { waiting.resume() }
        heldRefreshes.removeAll()
    }

    func sessionCount(username: String) -> Int { sessions.filter { $0.username == username }.count }

    // MARK: - HTTPTransport

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        requests.append(request)
        if unreachable { throw URLError(.cannotConnectToHost) }
        let path = request.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.path
        switch (request.method, path) {
        case ("POST", WireRoutes.accounts): return register(request)
        case ("POST", WireRoutes.sessions): return login(request)
        case ("POST", WireRoutes.refreshSession): return await refresh(request)
        case ("DELETE", WireRoutes.currentSession): return logout(request)
        case ("PUT", WireRoutes.password): return changePassword(request)
        case ("POST", WireRoutes.recoveryWrappedKey): return recoveryWrappedKey(request)
        case ("POST", WireRoutes.recoverPassword): return recoverPassword(request)
        case ("PUT", WireRoutes.recovery): return setRecovery(request)
        case ("GET", WireRoutes.changes): return changes(request)
        case ("GET", _) where path.hasPrefix("/v1/accounts/") && path.hasSuffix("/kdf"):
            let encoded = path.dropFirst("/v1/accounts/".count).dropLast("/kdf".count)
            guard !encoded.contains("/"), let username = String(encoded).removingPercentEncoding else {
                return Self.error(404, "not_found", "no such route")
            }
            return kdf(username: username)
        default:
            return Self.error(404, "not_found", "no such route")
        }
    }

    // MARK: - Routes

    private func kdf(username: String) -> TransportResponse {
        if let kdfOverride { return Self.json(200, kdfOverride) }
        if let account = accounts[username] { return Self.json(200, account.kdf) }
        // Stable fake parameters, so the route does not reveal who has an account.
        let salt = Data(username.utf8.reversed() + Array(repeating: 7, count: 16)).prefix(16)
        return Self.json(200, KDFParametersDTO(salt: salt.base64EncodedString(), iterations: 1_000))
    }

    private func register(_ request: TransportRequest) -> TransportResponse {
        guard let body = Self.decode(CreateAccountRequestDTO.self, request) else {
            return Self.error(400, "invalid_json", "bad body")
        }
        guard accounts[body.username] == nil else {
            return Self.error(409, "username_taken", "That username is taken.")
        }
        let account = Account(
            id: "acct-\(accounts.count + 1)", authKey: body.authKey, kdf: body.kdf,
            wrappedNotesKey: body.wrappedNotesKey, recovery: body.recovery)
        accounts[body.username] = account
        return Self.json(201, CreateAccountResponseDTO(accountId: account.id))
    }

    private func login(_ request: TransportRequest) -> TransportResponse {
        guard let body = Self.decode(CreateSessionRequestDTO.self, request) else {
            return Self.error(400, "invalid_json", "bad body")
        }
        if failedLogins[body.username, default: 0] >= Self.throttleAfter {
            return Self.error(429, "too_many_attempts", "Slow down.", headers: ["Retry-After": "30"])
        }
        guard let account = accounts[body.username], account.authKey == body.authKey else {
            failedLogins[body.username, default: 0] += 1
            return Self.error(401, "invalid_credentials", "Wrong username or password.")
        }
        failedLogins[body.username] = 0
        let session = Session(
            accountId: account.id, username: body.username, accessToken: token("access"),
            refreshToken: token("refresh"))
        sessions.append(session)
        return Self.json(200, sessionDTO(session, account))
    }

    private func refresh(_ request: TransportRequest) async -> TransportResponse {
        refreshRequests += 1
        if holding { await withCheckedContinuation { heldRefreshes.append($0) } }
        guard let body = Self.decode(RefreshSessionRequestDTO.self, request) else {
            return Self.error(400, "invalid_json", "bad body")
        }
        guard let index = sessions.firstIndex(where: { $0.refreshToken == body.refreshToken }),
            let account = accounts[sessions[index].username]
        else {
            return Self.error(401, "invalid_refresh_token", "Sign in again.")
        }
        sessions[index].accessToken = token("access")
        sessions[index].refreshToken = token("refresh")
        return Self.json(200, sessionDTO(sessions[index], account))
    }

    private func logout(_ request: TransportRequest) -> TransportResponse {
        guard let index = bearerSession(request) else { return Self.error(401, "unauthorized", "No session.") }
        sessions.remove(at: index)
        return TransportResponse(status: 204)
    }

    private func changePassword(_ request: TransportRequest) -> TransportResponse {
        guard let index = bearerSession(request) else { return Self.error(401, "unauthorized", "No session.") }
        guard let body = Self.decode(ChangePasswordRequestDTO.self, request) else {
            return Self.error(400, "invalid_json", "bad body")
        }
        let current = sessions[index]
        guard var account = accounts[current.username], account.authKey == body.currentAuthKey else {
            return Self.error(401, "invalid_credentials", "The current password is wrong.")
        }
        account.authKey = body.newAuthKey
        account.kdf = body.kdf
        account.wrappedNotesKey = body.wrappedNotesKey
        accounts[current.username] = account
        // This session stays; every other session of the account is signed out.
        sessions.removeAll { $0.username == current.username && $0.accessToken != current.accessToken }
        return TransportResponse(status: 204)
    }

    private func recoveryWrappedKey(_ request: TransportRequest) -> TransportResponse {
        guard let body = Self.decode(RecoveryWrappedKeyRequestDTO.self, request) else {
            return Self.error(400, "invalid_json", "bad body")
        }
        guard let recovery = accounts[body.username]?.recovery, recovery.authKey == body.recoveryAuthKey else {
            return Self.error(401, "invalid_credentials", "Wrong username or recovery key.")
        }
        return Self.json(200, RecoveryWrappedKeyDTO(wrappedNotesKey: recovery.wrappedNotesKey))
    }

    private func recoverPassword(_ request: TransportRequest) -> TransportResponse {
        guard let body = Self.decode(RecoverAccountRequestDTO.self, request) else {
            return Self.error(400, "invalid_json", "bad body")
        }
        guard var account = accounts[body.username], account.recovery?.authKey == body.recoveryAuthKey else {
            return Self.error(401, "invalid_credentials", "Wrong username or recovery key.")
        }
        account.authKey = body.newAuthKey
        account.kdf = body.kdf
        account.wrappedNotesKey = body.wrappedNotesKey
        accounts[body.username] = account
        // Every session of the account ends; this device gets a new one.
        sessions.removeAll { $0.username == body.username }
        let session = Session(
            accountId: account.id, username: body.username, accessToken: token("access"),
            refreshToken: token("refresh"))
        sessions.append(session)
        return Self.json(200, sessionDTO(session, account))
    }

    private func setRecovery(_ request: TransportRequest) -> TransportResponse {
        guard let index = bearerSession(request) else { return Self.error(401, "unauthorized", "No session.") }
        guard let body = Self.decode(SetRecoveryRequestDTO.self, request) else {
            return Self.error(400, "invalid_json", "bad body")
        }
        let username = sessions[index].username
        guard accounts[username]?.authKey == body.currentAuthKey else {
            return Self.error(401, "invalid_credentials", "The current password is wrong.")
        }
        accounts[username]?.recovery = body.recovery
        return TransportResponse(status: 204)
    }

    private func changes(_ request: TransportRequest) -> TransportResponse {
        notesRequests += 1
        guard bearerSession(request) != nil else { return Self.error(401, "unauthorized", "Bad token.") }
        return Self.json(200, ChangesPageDTO(changes: [], nextCursor: "c0", hasMore: false))
    }

    // MARK: - Helpers

    private func bearerSession(_ request: TransportRequest) -> Int? {
        guard let header = request.headers["Authorization"], header.hasPrefix("Bearer ") else { return nil }
        let token = String(header.dropFirst("Bearer ".count))
        return sessions.firstIndex { $0.accessToken == token }
    }

    private func token(_ kind: String) -> String {
        nextToken += 1
        return "\(kind)-\(nextToken)"
    }

    private func sessionDTO(_ session: Session, _ account: Account) -> SessionDTO {
        SessionDTO(
            accountId: account.id, accessToken: session.accessToken, refreshToken: session.refreshToken,
            expiresIn: Self.expiresIn, wrappedNotesKey: account.wrappedNotesKey)
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ request: TransportRequest) -> T? {
        request.body.flatMap { try? WireJSON.decoder().decode(type, from: $0) }
    }

    static func json<T: Encodable>(_ status: Int, _ value: T) -> TransportResponse {
        TransportResponse(
            status: status, headers: ["Content-Type": "application/json"], body: WireJSON.encode(value))
    }

    static func error(
        _ status: Int, _ code: String, _ message: String, headers: [String: String] = [:]
    ) -> TransportResponse {
        var response = json(status, ErrorResponseDTO(code: code, message: message))
        for (name, value) in headers { response.headers[name.lowercased()] = value }
        return response
    }
}

extension AccountsFakeServer {
    /// A hostile or broken server: hands `username` another wrapped key.
    func replaceWrappedKey(of username: String, with wrapped: String) {
        accounts[username]?.wrappedNotesKey = wrapped
    }
}
