import Foundation
import QuireCrypto
import QuireWire

/// The recovery key's flows (`quire recover`, `quire recovery-key`), issue 12, item 11.
///
/// The recovery key never leaves the device: the server gets only its auth key (HKDF, one
/// `info`) and the notes key sealed under its wrapping key (HKDF, another `info`).
extension AccountFlows {
    /// Sets a new password with the recovery key, after the old one was forgotten, and signs this
    /// device in. Every other session of the account is signed out; the notes key is unchanged,
    /// so every note still opens; the recovery key keeps working.
    ///
    /// Steps: refuse a weak `newPassword` (nothing sent); fetch the notes key's recovery copy with
    /// the recovery auth key and open it with the wrapping key; wrap the notes key under keys
    /// derived from `newPassword` with a new salt; send them with the recovery auth key; open the
    /// notes key the answer returns with the new master key.
    /// `trust` is kept in the session, as at ``login(serverURL:username:password:deviceName:transport:trust:minimumIterations:)``.
    /// - Throws: ``AccountError``: `weakPassword`, `invalidCredentials` ("the username or recovery
    ///   key is wrong", also for an account without one), `throttled`, `keyUnwrapFailed` (the
    ///   recovery copy did not open), `unreachable`, `transient`, `refused`, `invalidResponse`,
    ///   `insecureConnection`, `untrustedCertificate`.
    public static func recover(
        serverURL: URL, username: String, recoveryKey: RecoveryKey, newPassword: String, deviceName: String,
        transport: HTTPTransport, trust: ServerTrust = .system, iterations: Int = KeyDerivation.defaultIterations
    ) async throws -> AccountSession {
        try AccountKeys.checkNewPassword(newPassword, username: username)
        let accounts = AccountsAPIClient(transport: transport)
        let recoveryAuthKey = recoveryKey.authKey.data.base64EncodedString()
        let copy = try await recoveryCall {
            try await accounts.recoveryWrappedKey(
                RecoveryWrappedKeyRequestDTO(username: username, recoveryAuthKey: recoveryAuthKey))
        }
        let notesKey: SymmetricKey256
        do {
            guard let sealed = Data(base64Encoded: copy.wrappedNotesKey) else { throw CryptoError.inputTooShort }
            notesKey = try KeyDerivation.unwrap(
                sealed, with: recoveryKey.wrappingKey,
                associatedData: AccountKeys.recoveryNotesKeyAssociatedData(username: username))
        } catch {
            throw AccountError.keyUnwrapFailed.with(
                message: "The notes key's recovery copy did not open with this recovery key; nothing was changed.")
        }
        let (kdf, keys, wrapped) = try await AccountKeys.newPasswordMaterial(
            newPassword, notesKey: notesKey, username: username, iterations: iterations)
        let dto = try await recoveryCall {
            try await accounts.recoverPassword(
                RecoverAccountRequestDTO(
                    username: username, recoveryAuthKey: recoveryAuthKey,
                    newAuthKey: keys.authKey.data.base64EncodedString(), kdf: kdf,
                    wrappedNotesKey: wrapped.base64EncodedString(), deviceName: deviceName))
        }
        let session = try session(
            from: dto, serverURL: serverURL, trust: trust, username: username, masterKey: keys.masterKey, kdf: kdf)
        guard try session.notesKeyValue() == notesKey else {
            throw AccountError.keyUnwrapFailed.with(
                message: "The server returned a different notes key than the recovery key opened.")
        }
        return session
    }

    /// Makes a new recovery key for a signed-in account (one registered before recovery keys, or
    /// one whose key was lost or exposed); the one before it stops working. Needs the current
    /// password, so a device left signed in is not enough to take the account over.
    /// - Returns: the new key, to show once, and `session` (with new tokens if it was refreshed).
    /// - Throws: ``AccountError``: `signedOut`, `invalidCredentials` (wrong password), `throttled`,
    ///   `unreachable`, `transient`, `refused`, `unreadableSession`.
    public static func replaceRecoveryKey(
        session: AccountSession, currentPassword: String, transport: HTTPTransport,
        now: @Sendable () -> Date = Date.init
    ) async throws -> (recoveryKey: RecoveryKey, session: AccountSession) {
        guard session.isSignedIn else { throw AccountError.signedOut }
        let accounts = AccountsAPIClient(transport: transport)
        let current = try await currentKeys(session, password: currentPassword)
        let recoveryKey = RecoveryKey.random()
        let request = SetRecoveryRequestDTO(
            currentAuthKey: current.authKey.data.base64EncodedString(),
            recovery: try AccountKeys.recoveryMaterial(
                recoveryKey, notesKey: try session.notesKeyValue(), username: session.username))
        let updated = try await withAccessToken(session, accounts: accounts, now: now) { token in
            try await accounts.setRecovery(request, accessToken: token)
        }
        return (recoveryKey, updated)
    }

    /// Runs a request proven by the recovery auth key: a 401 there means the recovery key (or the
    /// username) is wrong, not the password.
    private static func recoveryCall<T>(_ request: () async throws -> T) async throws -> T {
        do {
            return try await request()
        } catch let error as AccountError where error == .invalidCredentials {
            throw error.with(message: "The username or recovery key is wrong; nothing was changed.")
        }
    }
}
