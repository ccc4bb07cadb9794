import Foundation
import QuireWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The account and session endpoints of API v1 over an ``HTTPTransport``.
///
/// `kdf`, `register`, `login` and `refresh` send no credentials but what their bodies hold;
/// `logout` and `changePassword` send `Authorization: Bearer <access token>`. This client does not
/// refresh on a 401 itself: the caller holds the tokens (``SessionTokenProvider``, ``AccountFlows``).
///
/// Every failure is an ``AccountError``: 409 at sign-up → `usernameTaken`; 401 → `invalidCredentials`
/// (or `signedOut` on a bearer route whose token was refused); 429 → `throttled` with `Retry-After`;
/// a connection failure → `unreachable` or `transient`; 408 and 5xx → `transient`; any other 4xx →
/// `refused` with the server's code and message; an unreadable answer → `invalidResponse`.
/// Cancelling the caller cancels the request and throws `CancellationError`.
public struct AccountsAPIClient: Sendable {
    private let transport: HTTPTransport
    private let requestTimeout: TimeInterval

    public init(transport: HTTPTransport, requestTimeout: TimeInterval = 30) {
        self.transport = transport
        self.requestTimeout = requestTimeout
    }

    /// `GET /v1/accounts/{username}/kdf`: the parameters to derive keys with. An unknown username
    /// gets stable fake parameters, so this cannot tell whether the account exists.
    public func kdf(username: String) async throws -> KDFParametersDTO {
        let response = try await send("GET", WireRoutes.kdf(Self.pathSegment(username)))
        guard response.status == 200 else { throw Self.failure(response) }
        return try Self.decode(KDFParametersDTO.self, from: response)
    }

    /// `POST /v1/accounts`: creates the account. Throws `usernameTaken` on 409.
    public func register(_ request: CreateAccountRequestDTO) async throws -> CreateAccountResponseDTO {
        let response = try await send("POST", WireRoutes.accounts, body: WireJSON.encode(request))
        switch response.status {
        case 200, 201: return try Self.decode(CreateAccountResponseDTO.self, from: response)
        case 409: throw Self.failure(response, as: .usernameTaken)
        default: throw Self.failure(response)
        }
    }

    /// `POST /v1/sessions`: signs in. Throws `invalidCredentials` on 401, `throttled` on 429.
    public func login(_ request: CreateSessionRequestDTO) async throws -> SessionDTO {
        let response = try await send("POST", WireRoutes.sessions, body: WireJSON.encode(request))
        guard [200, 201].contains(response.status) else { throw Self.failure(response) }
        return try Self.decode(SessionDTO.self, from: response)
    }

    /// `POST /v1/sessions/refresh`: a new token pair; the old refresh token stops working.
    /// Throws `invalidCredentials` (401) when the refresh token is no longer accepted.
    public func refresh(refreshToken: String) async throws -> SessionDTO {
        let body = WireJSON.encode(RefreshSessionRequestDTO(refreshToken: refreshToken))
        let response = try await send("POST", WireRoutes.refreshSession, body: body)
        guard [200, 201].contains(response.status) else { throw Self.failure(response) }
        return try Self.decode(SessionDTO.self, from: response)
    }

    /// `DELETE /v1/sessions/current`: ends this session on the server. Throws `signedOut` on 401
    /// (the session had already ended).
    public func logout(accessToken: String) async throws {
        let response = try await send("DELETE", WireRoutes.currentSession, bearer: accessToken)
        guard [200, 204].contains(response.status) else { throw Self.bearerFailure(response) }
    }

    /// `PUT /v1/accounts/current/password`: stores the notes key re-wrapped under the new password.
    /// The server keeps this session and signs out the account's other sessions.
    /// Throws `invalidCredentials` when `currentAuthKey` is wrong (401 `invalid_credentials`),
    /// `signedOut` when the access token was refused (any other 401).
    public func changePassword(_ request: ChangePasswordRequestDTO, accessToken: String) async throws {
        let response = try await send(
            "PUT", WireRoutes.password, body: WireJSON.encode(request), bearer: accessToken)
        guard [200, 204].contains(response.status) else { throw Self.bearerFailure(response) }
    }

    /// `POST /v1/accounts/recovery/wrapped-notes-key`: the notes key's recovery copy. Throws
    /// `invalidCredentials` on 401 (a wrong recovery key, or none), `throttled` on 429.
    public func recoveryWrappedKey(_ request: RecoveryWrappedKeyRequestDTO) async throws -> RecoveryWrappedKeyDTO {
        let response = try await send("POST", WireRoutes.recoveryWrappedKey, body: WireJSON.encode(request))
        guard response.status == 200 else { throw Self.failure(response) }
        return try Self.decode(RecoveryWrappedKeyDTO.self, from: response)
    }

    /// `POST /v1/accounts/recovery/password`: a new password proven by the recovery auth key; the
    /// answer is this device's session. Throws `invalidCredentials` on 401, `throttled` on 429.
    public func recoverPassword(_ request: RecoverAccountRequestDTO) async throws -> SessionDTO {
        let response = try await send("POST", WireRoutes.recoverPassword, body: WireJSON.encode(request))
        guard [200, 201].contains(response.status) else { throw Self.failure(response) }
        return try Self.decode(SessionDTO.self, from: response)
    }

    /// `PUT /v1/accounts/current/recovery`: makes or replaces the recovery key. Throws
    /// `invalidCredentials` when `currentAuthKey` is wrong, `signedOut` when the token was refused.
    public func setRecovery(_ request: SetRecoveryRequestDTO, accessToken: String) async throws {
        let response = try await send(
            "PUT", WireRoutes.recovery, body: WireJSON.encode(request), bearer: accessToken)
        guard [200, 204].contains(response.status) else { throw Self.bearerFailure(response) }
    }

    /// `GET /v1/sessions`: the account's signed-in devices. Throws `signedOut` when the access
    /// token was refused.
    public func sessions(accessToken: String) async throws -> SessionListDTO {
        let response = try await send("GET", WireRoutes.sessions, bearer: accessToken)
        guard response.status == 200 else { throw Self.bearerFailure(response) }
        return try Self.decode(SessionListDTO.self, from: response)
    }

    /// `DELETE /v1/sessions/{id}`: signs that device out. Throws `signedOut` when the access token
    /// was refused, `refused` (404 `not_found`) for an id that is no live session of the account.
    public func revokeSession(id: String, accessToken: String) async throws {
        let response = try await send("DELETE", WireRoutes.session(id), bearer: accessToken)
        guard [200, 204].contains(response.status) else { throw Self.bearerFailure(response) }
    }

    // MARK: - Plumbing

    private func send(
        _ method: String, _ path: String, body: Data? = nil, bearer: String? = nil
    ) async throws -> TransportResponse {
        var headers = ["Accept": "application/json"]
        if body != nil { headers["Content-Type"] = "application/json" }
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
        let request = TransportRequest(
            method: method, path: path, headers: headers, body: body, timeout: requestTimeout)
        do {
            return try await transport.send(request)
        } catch let error as URLError {
            if error.code == .cancelled { throw CancellationError() }
            let kind: AccountError =
                if error.code == .appTransportSecurityRequiresSecureConnection {
                    .insecureConnection
                } else if AuthorizedTransport.untrustedCodes.contains(error.code) {
                    .untrustedCertificate
                } else if AuthorizedTransport.unreachableCodes.contains(error.code) {
                    .unreachable
                } else {
                    .transient
                }
            throw kind.with(detail: AuthorizedTransport.detail(of: error))
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as AccountError {
            throw error
        } catch {
            throw AccountError.transient.with(message: "The request failed: \(error)")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from response: TransportResponse) throws -> T {
        do {
            return try WireJSON.decoder().decode(type, from: response.body)
        } catch {
            throw AccountError.invalidResponse.with(status: response.status, detail: "not a \(T.self)")
        }
    }

    /// Maps a failed status to an ``AccountError``; `kind` overrides the status's usual kind.
    static func failure(_ response: TransportResponse, as kind: AccountError? = nil) -> AccountError {
        let detail = try? WireJSON.decoder().decode(ErrorResponseDTO.self, from: response.body).error
        let base: AccountError
        if let kind {
            base = kind
        } else {
            switch response.status {
            case 401: base = .invalidCredentials
            case 429: base = .throttled
            case 408, 500...599: base = .transient
            case 400...499: base = .refused
            default: base = .invalidResponse
            }
        }
        // Keep our own sentence for the kinds the CLI explains; a refusal is best told in the server's words.
        let message = base == .refused || base == .invalidResponse ? detail?.message : nil
        let retryAfter = response.headers["retry-after"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        return base.with(message: message, status: response.status, code: detail?.code, retryAfter: retryAfter)
    }

    /// As ``failure(_:as:)``, for routes that send a bearer token: a 401 that is not about the
    /// password means the token was refused.
    static func bearerFailure(_ response: TransportResponse) -> AccountError {
        let error = failure(response)
        guard response.status == 401, error.code != "invalid_credentials" else { return error }
        return failure(response, as: .signedOut)
    }

    /// `username` as one path segment: everything but unreserved ASCII is percent-encoded, so a
    /// name with `/`, `?`, spaces or accents cannot change the route (nor can `.` or `..`).
    static func pathSegment(_ username: String) -> String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let encoded = username.addingPercentEncoding(withAllowedCharacters: unreserved) ?? username
        if encoded == "." || encoded == ".." {
            return encoded.replacingOccurrences(of: ".", with: "%2E")
        }
        return encoded
    }
}
