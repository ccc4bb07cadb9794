import Foundation
import QuireWire

/// The recovery-key routes of API v1 (issue 12, item 11): the recovery copy of the notes key,
/// a password reset proven by the recovery key, and making or replacing a recovery key.
///
/// The server never sees the recovery key: the device sends a recovery auth key derived from it
/// (HKDF, its own `info`), of which only a slow salted hash is stored, exactly as for the
/// password's auth key; and the notes key sealed under another key derived from it, which the
/// server cannot open. Every check of a recovery auth key is admitted by the login throttle
/// first, and an unknown username, an account without a recovery key and a wrong key all get
/// the same 401 `invalid_credentials` after the same work.
extension NotesServer {
    /// `POST /v1/accounts/recovery/wrapped-notes-key`: the recovery copy of the notes key for
    /// the right recovery auth key. Changes nothing.
    func recoveryWrappedKey(_ request: HTTPRequest) async throws -> HTTPResponse {
        try checkAccountBodySize(request)
        let body = try RequestValidation.recoveryWrappedKey(request.body)
        let (_, recovery, attempt) = try await checkRecovery(
            username: body.username, recoveryAuthKey: body.recoveryAuthKey, request: request)
        try await throttle.succeeded(attempt)
        return .json(200, RecoveryWrappedKeyDTO(wrappedNotesKey: recovery.wrappedNotesKey.base64EncodedString()))
    }

    /// `POST /v1/accounts/recovery/password`: for the right recovery auth key, replaces the
    /// password's auth-key hash, kdf parameters and wrapped notes key, signs out every session of
    /// the account, and answers a session for this device. The recovery credentials stay: the
    /// recovery key keeps working (docs/security.md says why).
    func recoverPassword(_ request: HTTPRequest) async throws -> HTTPResponse {
        try checkAccountBodySize(request)
        let body = try RequestValidation.recoverAccount(
            request.body, minIterations: configuration.minKDFIterations)
        let (account, recovery, attempt) = try await checkRecovery(
            username: body.username, recoveryAuthKey: body.recoveryAuthKey, request: request)
        let replacement = try await credentials(
            authKey: body.newAuthKey, kdf: body.kdf, wrappedKey: body.wrappedNotesKey)
        let (access, refresh, hashes) = newTokens()
        let opened = try await storage.recoverCredentials(
            account: account.id, expectedRecoveryAuthHash: recovery.authKeyHash, to: replacement,
            deviceName: body.deviceName, tokens: hashes, now: now())
        // The recovery key was replaced meanwhile: the key just checked is no longer the current one.
        guard opened != nil else { throw APIError.invalidCredentials }
        try await throttle.succeeded(attempt)
        log("a password was reset with its account's recovery key; every other session is signed out")
        var updated = account
        updated.credentials = replacement
        return .json(200, sessionDTO(updated, access: access, refresh: refresh))
    }

    /// `PUT /v1/accounts/current/recovery`: 204 after storing a new recovery key's credentials
    /// (the one before it stops working). Needs the current password's auth key as well as the
    /// session: a wrong one is 401 `invalid_credentials` and counts toward the login throttle.
    func setRecovery(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await authenticate(request)
        try checkAccountBodySize(request)
        let body = try RequestValidation.setRecovery(request.body)
        guard let account = try await storage.account(id: session.account) else {
            throw APIError.unauthorized
        }
        let attempt = try await admit(username: account.username, request: request)
        guard try await hasher.verify(body.currentAuthKey, against: account.credentials) else {
            throw APIError.invalidCredentials
        }
        let replaced = try await storage.replaceRecovery(
            account: account.id, expectedAuthKeyHash: account.credentials.authKeyHash,
            with: try await recoveryCredentials(body.recovery))
        // The password changed meanwhile: the key just checked is no longer the current one.
        guard replaced else { throw APIError.invalidCredentials }
        try await throttle.succeeded(attempt)
        return .empty(204)
    }

    // MARK: - Shared steps

    /// What is stored of `material`: a slow salted hash of its auth key and its sealed notes key.
    func recoveryCredentials(_ material: RecoveryMaterial) async throws -> RecoveryCredentials {
        let (hash, salt) = try await hasher.hash(material.authKey)
        return RecoveryCredentials(
            authKeyHash: hash, authSalt: salt, authIterations: hasher.iterations,
            wrappedNotesKey: material.wrappedNotesKey)
    }

    /// Admits the attempt, then checks `recoveryAuthKey` against the account's recovery
    /// credentials; throws 429 or 401 `invalid_credentials` (the same for an unknown username
    /// and an account without a recovery key, after the same work).
    private func checkRecovery(username: Username, recoveryAuthKey: Data, request: HTTPRequest) async throws
        -> (StoredAccount, RecoveryCredentials, LoginThrottle.Attempt)
    {
        let attempt = try await admit(username: username.value, request: request)
        let account = try await storage.account(username: username.value)
        guard try await hasher.verify(recoveryAuthKey, against: account?.recovery), let account,
            let recovery = account.recovery
        else { throw APIError.invalidCredentials }
        return (account, recovery, attempt)
    }
}
