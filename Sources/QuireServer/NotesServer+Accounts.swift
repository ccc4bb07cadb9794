import Foundation
import QuireCrypto
import QuireWire

/// The accounts routes of API v1: key-derivation parameters, registration, password change; and
/// the dispatcher for every accounts and sessions path.
extension NotesServer {
    /// Answers the accounts and sessions paths, or returns nil for any other path.
    func accountsRoute(_ request: HTTPRequest) async throws -> HTTPResponse? {
        let path = request.path
        guard
            path == WireRoutes.accounts || path.hasPrefix(WireRoutes.accounts + "/")
                || path == WireRoutes.sessions || path.hasPrefix(WireRoutes.sessions + "/")
        else { return nil }
        switch path {
        case WireRoutes.accounts:
            try allow(request, ["POST"])
            return try await createAccount(request)
        case WireRoutes.password:
            try allow(request, ["PUT"])
            return try await changePassword(request)
        case WireRoutes.recovery:
            try allow(request, ["PUT"])
            return try await setRecovery(request)
        case WireRoutes.recoveryWrappedKey:
            try allow(request, ["POST"])
            return try await recoveryWrappedKey(request)
        case WireRoutes.recoverPassword:
            try allow(request, ["POST"])
            return try await recoverPassword(request)
        case WireRoutes.sessions:
            try allow(request, ["POST", "GET"])
            return try await request.method == "GET" ? listSessions(request) : signIn(request)
        case WireRoutes.refreshSession:
            try allow(request, ["POST"])
            return try await refresh(request)
        case WireRoutes.currentSession:
            try allow(request, ["DELETE"])
            return try await signOut(request)
        default:
            break
        }
        if path.hasPrefix(WireRoutes.sessions + "/") {
            let id = String(path.dropFirst(WireRoutes.sessions.count + 1))
            guard !id.isEmpty, !id.contains(Character("/")) else {
                throw APIError.notFound("There is no \(path); see /v1/openapi.json for the API.")
            }
            try allow(request, ["DELETE"])
            return try await revokeSession(request, id: id)
        }
        let prefix = WireRoutes.accounts + "/"
        let suffix = "/kdf"
        let middle = path.dropFirst(prefix.count)
        guard path.hasPrefix(prefix), middle.hasSuffix(suffix) else {
            throw APIError.notFound("There is no \(path); see /v1/openapi.json for the API.")
        }
        let rawName = String(middle.dropLast(suffix.count))
        guard !rawName.contains(Character("/")) else {
            throw APIError.notFound("There is no \(path); see /v1/openapi.json for the API.")
        }
        try allow(request, ["GET"])
        return try await kdfParameters(rawName)
    }

    // MARK: - Key-derivation parameters

    /// The account's kdf parameters, or, for a name without an account, fake ones that are the
    /// same on every call and after restarts: the salt is the first 16 bytes of
    /// HMAC-SHA256(server secret, username), the iterations what new accounts are advised to use.
    ///
    /// A real account whose salt is not 16 bytes long, or whose iterations differ from the
    /// advised count, is still distinguishable; clients that follow the defaults are not.
    private func kdfParameters(_ rawName: String) async throws -> HTTPResponse {
        let username = try RequestValidation.username(rawName)
        if let account = try await storage.account(username: username.value) {
            return .json(
                200,
                KDFParametersDTO(
                    salt: account.credentials.kdfSalt.base64EncodedString(),
                    iterations: account.credentials.kdfIterations))
        }
        let secret = try await storage.serverSecret()
        let salt = HMAC.sha256(key: secret, data: Data(username.value.utf8)).prefix(16)
        return .json(
            200,
            KDFParametersDTO(
                salt: Data(salt).base64EncodedString(),
                iterations: configuration.newAccountKDFIterations))
    }

    // MARK: - Registration

    /// `POST /v1/accounts`: 201 with the new account's public id, 409 when the name is taken,
    /// 429 with `Retry-After` when the client's address used up its registrations
    /// (``RegistrationLimit``; a well-formed attempt counts whatever its answer, since each costs
    /// a slow hash). Only slow salted hashes of the auth key and of the recovery auth key are stored.
    private func createAccount(_ request: HTTPRequest) async throws -> HTTPResponse {
        try checkAccountBodySize(request)
        let body = try RequestValidation.newAccount(
            request.body, minIterations: configuration.minKDFIterations)
        if let seconds = await registrations.take(address: request.remoteAddress) {
            throw APIError.tooManyRegistrations(retryAfter: seconds)
        }
        let publicID = try await register(
            username: body.username, authKey: body.authKey, kdf: body.kdf,
            wrappedNotesKey: body.wrappedNotesKey, recovery: body.recovery)
        return .json(201, CreateAccountResponseDTO(accountId: publicID))
    }

    /// Stores a new account and returns its public id. Throws ``APIError/usernameTaken``.
    func register(
        username: Username, authKey: Data, kdf: ClientKDF, wrappedNotesKey: Data,
        recovery: RecoveryMaterial? = nil
    ) async throws -> String {
        let publicID = UUID().uuidString.lowercased()
        let credentials = try await credentials(authKey: authKey, kdf: kdf, wrappedKey: wrappedNotesKey)
        var recoveryCredentials: RecoveryCredentials?
        if let recovery { recoveryCredentials = try await self.recoveryCredentials(recovery) }
        do {
            _ = try await storage.createAccount(
                username: username.value, publicID: publicID, credentials: credentials,
                recovery: recoveryCredentials, now: now())
        } catch let error as ServerStorageError where error == .usernameTaken(username.value) {
            throw APIError.usernameTaken
        }
        return publicID
    }

    func credentials(authKey: Data, kdf: ClientKDF, wrappedKey: Data) async throws
        -> AccountCredentials
    {
        let (hash, salt) = try await hasher.hash(authKey)
        return AccountCredentials(
            authKeyHash: hash, authSalt: salt, authIterations: hasher.iterations,
            kdfSalt: kdf.salt, kdfIterations: kdf.iterations, wrappedNotesKey: wrappedKey)
    }

    // MARK: - Password change

    /// `PUT /v1/accounts/current/password`: 204 after storing the new auth-key hash, kdf
    /// parameters and wrapped notes key, and signing out every other session of the account.
    /// A wrong current key is 401 `invalid_credentials` and counts toward the login throttle.
    private func changePassword(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await authenticate(request)
        try checkAccountBodySize(request)
        let body = try RequestValidation.passwordChange(
            request.body, minIterations: configuration.minKDFIterations)
        guard let account = try await storage.account(id: session.account) else {
            throw APIError.unauthorized
        }
        let attempt = try await admit(username: account.username, request: request)
        guard try await hasher.verify(body.currentAuthKey, against: account.credentials) else {
            throw APIError.invalidCredentials
        }
        let replacement = try await credentials(
            authKey: body.newAuthKey, kdf: body.kdf, wrappedKey: body.wrappedNotesKey)
        let changed = try await storage.changeCredentials(
            account: account.id, expectedAuthKeyHash: account.credentials.authKeyHash,
            to: replacement, keeping: session.session)
        // Another change won the race: the key just checked is no longer the current one.
        guard changed else { throw APIError.invalidCredentials }
        try await throttle.succeeded(attempt)
        return .empty(204)
    }

    // MARK: - Shared checks

    func checkAccountBodySize(_ request: HTTPRequest) throws(APIError) {
        guard request.body.count <= RequestValidation.maxAccountBodyBytes else {
            throw .payloadTooLarge
        }
    }

    /// Admits one sign-in attempt by `username` from the request's address, or throws 429.
    func admit(username: String, request: HTTPRequest) async throws -> LoginThrottle.Attempt {
        switch try await throttle.admit(username: username, address: request.remoteAddress) {
        case .allowed(let attempt):
            return attempt
        case .locked(let seconds):
            throw APIError.tooManyAttempts(retryAfter: seconds)
        }
    }
}
