import Foundation
import QuireCrypto
import QuireWire

/// The account operations a user starts (`quire register`, `login`, `passwd`, `logout`): each one
/// derives keys, talks to the server through ``AccountsAPIClient`` and returns the
/// ``AccountSession`` the caller should store.
///
/// The password never leaves the device: PBKDF2 turns it into an auth key (sent) and a master key
/// (kept, used only to wrap and unwrap the random notes key). None of these store anything: the
/// caller saves the returned session in its ``CredentialStore``, or clears it after `logout`.
/// Cancelling the caller cancels the request in progress; a key derivation already running finishes.
public enum AccountFlows {
    /// Creates an account with a new random notes key, then signs this device in.
    ///
    /// The notes key is wrapped with the master key, bound to `username`, and stored on the server;
    /// the device then signs in as ``login(serverURL:username:password:deviceName:transport:minimumIterations:)``
    /// would and checks the server hands back the same key.
    /// `trust` is kept in the session, for every later request (make `transport` with it too).
    /// - Throws: ``AccountError``: `usernameTaken`, `throttled`, `unreachable`, `transient`,
    ///   `refused`, `invalidResponse`, `keyUnwrapFailed` (the server returned another key),
    ///   `insecureConnection` and `untrustedCertificate` (from the transport, before any key is sent).
    public static func register(
        serverURL: URL, username: String, password: String, deviceName: String, transport: HTTPTransport,
        trust: ServerTrust = .system, iterations: Int = KeyDerivation.defaultIterations
    ) async throws -> AccountSession {
        let accounts = AccountsAPIClient(transport: transport)
        let salt = KeyDerivation.randomSalt()
        let kdf = KDFParametersDTO(
            algorithm: AccountKeys.algorithm, salt: salt.base64EncodedString(), iterations: iterations)
        let keys = try await AccountKeys.derive(password: password, salt: salt, iterations: iterations)
        let notesKey = SymmetricKey256.random()
        let wrapped = try KeyDerivation.wrap(
            notesKey: notesKey, with: keys.masterKey,
            associatedData: AccountKeys.notesKeyAssociatedData(username: username))
        _ = try await accounts.register(
            CreateAccountRequestDTO(
                username: username, authKey: keys.authKey.data.base64EncodedString(), kdf: kdf,
                wrappedNotesKey: wrapped.base64EncodedString()))
        let session = try await openSession(
            serverURL: serverURL, trust: trust, username: username, keys: keys, kdf: kdf, deviceName: deviceName,
            accounts: accounts)
        guard try session.notesKeyValue() == notesKey else {
            throw AccountError.keyUnwrapFailed.with(
                message: "The server returned a different notes key than the one just registered.")
        }
        return session
    }

    /// Signs this device in: fetches the account's key-derivation parameters, refuses unsafe ones,
    /// derives the keys, opens a session and unwraps the notes key.
    /// - Parameters:
    ///   - trust: kept in the session, for every later request (make `transport` with it too).
    ///   - minimumIterations: the fewest PBKDF2 iterations accepted from the server.
    /// - Throws: ``AccountError``: `unsafeKeyDerivation` (before any key is derived or sent),
    ///   `invalidCredentials`, `throttled` (with `retryAfter`), `keyUnwrapFailed` ("wrong password or
    ///   corrupted key"), `unreachable`, `transient`, `refused`, `invalidResponse`,
    ///   `insecureConnection`, `untrustedCertificate`.
    public static func login(
        serverURL: URL, username: String, password: String, deviceName: String, transport: HTTPTransport,
        trust: ServerTrust = .system, minimumIterations: Int = KeyDerivation.defaultIterations
    ) async throws -> AccountSession {
        let accounts = AccountsAPIClient(transport: transport)
        let kdf = try await accounts.kdf(username: username)
        let salt = try AccountKeys.checkedSalt(kdf, minimumIterations: minimumIterations)
        let keys = try await AccountKeys.derive(password: password, salt: salt, iterations: kdf.iterations)
        return try await openSession(
            serverURL: serverURL, trust: trust, username: username, keys: keys, kdf: kdf, deviceName: deviceName,
            accounts: accounts)
    }

    /// Changes the password: re-wraps the same notes key under keys derived from `newPassword` with a
    /// new salt. No note is re-encrypted and nothing is lost.
    ///
    /// The server is expected to keep this session valid and sign out the account's other sessions;
    /// they sign in again with the new password and unwrap the same notes key. If the access token
    /// was refused, the session is refreshed once and the change retried. If no answer comes, the
    /// change may or may not have happened: the old password or the new one works, not both.
    /// - Returns: `session` with the new kdf parameters (and new tokens if it was refreshed).
    /// - Throws: ``AccountError``: `signedOut` (no tokens, or the refresh was refused),
    ///   `invalidCredentials` (wrong current password), `throttled`, `unreachable`, `transient`,
    ///   `refused`, `unsafeKeyDerivation`/`unreadableSession` for a damaged stored session.
    public static func changePassword(
        session: AccountSession, currentPassword: String, newPassword: String, transport: HTTPTransport,
        iterations: Int = KeyDerivation.defaultIterations, now: @Sendable () -> Date = Date.init
    ) async throws -> AccountSession {
        guard let accessToken = session.accessToken, let refreshToken = session.refreshToken else {
            throw AccountError.signedOut
        }
        let accounts = AccountsAPIClient(transport: transport)
        let notesKey = try session.notesKeyValue()
        // The stored parameters were accepted at sign-in; check them again, they come from a file.
        let currentSalt = try AccountKeys.checkedSalt(session.kdf, minimumIterations: 1)
        let current = try await AccountKeys.derive(
            password: currentPassword, salt: currentSalt, iterations: session.kdf.iterations)
        let newSalt = KeyDerivation.randomSalt()
        let newKDF = KDFParametersDTO(
            algorithm: AccountKeys.algorithm, salt: newSalt.base64EncodedString(), iterations: iterations)
        let new = try await AccountKeys.derive(password: newPassword, salt: newSalt, iterations: iterations)
        let wrapped = try KeyDerivation.wrap(
            notesKey: notesKey, with: new.masterKey,
            associatedData: AccountKeys.notesKeyAssociatedData(username: session.username))
        let request = ChangePasswordRequestDTO(
            currentAuthKey: current.authKey.data.base64EncodedString(),
            newAuthKey: new.authKey.data.base64EncodedString(), kdf: newKDF,
            wrappedNotesKey: wrapped.base64EncodedString())

        var updated = session
        do {
            try await accounts.changePassword(request, accessToken: accessToken)
        } catch let error as AccountError where error == .signedOut {
            // The access token expired: refresh once and retry, as the notes client does.
            let dto: SessionDTO
            do {
                dto = try await accounts.refresh(refreshToken: refreshToken)
            } catch let error as AccountError where error == .invalidCredentials || error == .refused {
                throw AccountError.signedOut.with(status: error.status, code: error.code)
            }
            updated = updated.withTokens(of: dto, now: now())
            try await accounts.changePassword(request, accessToken: dto.accessToken)
        }
        updated.kdf = newKDF
        return updated
    }

    /// How a sign-out went on the server's side. The device signs out either way.
    public enum LogoutOutcome: Sendable, Equatable {
        /// The server ended the session (or it had already ended).
        case confirmed
        /// The server could not be told; its session lapses when its tokens expire.
        case notConfirmed(AccountError)
    }

    /// Ends the session on the server (`DELETE /v1/sessions/current`). Never throws: a failure to
    /// reach the server is returned, for the caller to report, and the caller clears its store
    /// either way. Cancellation is returned as a `transient` failure.
    public static func logout(session: AccountSession, transport: HTTPTransport) async -> LogoutOutcome {
        guard let accessToken = session.accessToken else { return .confirmed }
        do {
            try await AccountsAPIClient(transport: transport).logout(accessToken: accessToken)
            return .confirmed
        } catch let error as AccountError where error == .signedOut || error == .invalidCredentials {
            return .confirmed
        } catch let error as AccountError {
            return .notConfirmed(error)
        } catch {
            return .notConfirmed(AccountError.transient.with(message: "Signing out was interrupted."))
        }
    }

    // MARK: - Shared steps

    /// `POST /v1/sessions` with `keys`, then unwraps the notes key the server returns.
    private static func openSession(
        serverURL: URL, trust: ServerTrust, username: String, keys: KeyDerivation.Keys, kdf: KDFParametersDTO,
        deviceName: String, accounts: AccountsAPIClient
    ) async throws -> AccountSession {
        let dto = try await accounts.login(
            CreateSessionRequestDTO(
                username: username, authKey: keys.authKey.data.base64EncodedString(), deviceName: deviceName))
        guard let wrapped = Data(base64Encoded: dto.wrappedNotesKey) else {
            throw AccountError.keyUnwrapFailed
        }
        let notesKey: SymmetricKey256
        do {
            notesKey = try KeyDerivation.unwrap(
                wrapped, with: keys.masterKey,
                associatedData: AccountKeys.notesKeyAssociatedData(username: username))
        } catch {
            throw AccountError.keyUnwrapFailed
        }
        let session = AccountSession(
            serverURL: serverURL, username: username, accountId: dto.accountId, accessToken: nil,
            refreshToken: nil, accessTokenExpiresAt: nil, notesKey: notesKey.data.base64EncodedString(),
            kdf: kdf, trust: trust)
        return session.withTokens(of: dto, now: Date())
    }
}
