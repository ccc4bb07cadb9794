import Foundation

/// Key-derivation parameters for an account: what a device needs, with the password, to derive the
/// auth key and the master key. `GET /v1/accounts/{username}/kdf`, and part of registration.
public struct KDFParametersDTO: Codable, Sendable, Equatable {
    /// `pbkdf2-sha256`.
    public var algorithm: String
    /// Base64.
    public var salt: String
    public var iterations: Int

    public init(algorithm: String = "pbkdf2-sha256", salt: String, iterations: Int) {
        self.algorithm = algorithm
        self.salt = salt
        self.iterations = iterations
    }
}

/// `POST /v1/accounts` → 201 ``CreateAccountResponseDTO``, or 409 `username_taken`.
public struct CreateAccountRequestDTO: Codable, Sendable, Equatable {
    public var username: String
    /// Base64 of the 32-byte auth key derived from the password (never the password).
    public var authKey: String
    public var kdf: KDFParametersDTO
    /// Base64 of the notes key sealed with the master key (AES-GCM combined form).
    public var wrappedNotesKey: String
    /// The recovery key's proof and sealed copy of the notes key; absent from older clients.
    public var recovery: RecoveryMaterialDTO?

    public init(
        username: String, authKey: String, kdf: KDFParametersDTO, wrappedNotesKey: String,
        recovery: RecoveryMaterialDTO? = nil
    ) {
        self.username = username
        self.authKey = authKey
        self.kdf = kdf
        self.wrappedNotesKey = wrappedNotesKey
        self.recovery = recovery
    }
}

public struct CreateAccountResponseDTO: Codable, Sendable, Equatable {
    public var accountId: String

    public init(accountId: String) {
        self.accountId = accountId
    }
}

/// `POST /v1/sessions` → ``SessionDTO``, 401 `invalid_credentials`, or 429 with `Retry-After`.
public struct CreateSessionRequestDTO: Codable, Sendable, Equatable {
    public var username: String
    public var authKey: String
    public var deviceName: String

    public init(username: String, authKey: String, deviceName: String) {
        self.username = username
        self.authKey = authKey
        self.deviceName = deviceName
    }
}

/// A signed-in session: `POST /v1/sessions` and `POST /v1/sessions/refresh` answer with it.
public struct SessionDTO: Codable, Sendable, Equatable {
    public var accountId: String
    public var accessToken: String
    public var refreshToken: String
    /// Seconds until the access token expires.
    public var expiresIn: Int
    public var wrappedNotesKey: String

    public init(
        accountId: String, accessToken: String, refreshToken: String, expiresIn: Int,
        wrappedNotesKey: String
    ) {
        self.accountId = accountId
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.wrappedNotesKey = wrappedNotesKey
    }
}

/// `POST /v1/sessions/refresh`: the old refresh token stops working; reusing it revokes the session.
public struct RefreshSessionRequestDTO: Codable, Sendable, Equatable {
    public var refreshToken: String

    public init(refreshToken: String) {
        self.refreshToken = refreshToken
    }
}

/// `PUT /v1/accounts/current/password` (bearer auth) → 204. Re-wraps the notes key under the new
/// password; every other session of the account is signed out. No note is re-encrypted.
public struct ChangePasswordRequestDTO: Codable, Sendable, Equatable {
    public var currentAuthKey: String
    public var newAuthKey: String
    public var kdf: KDFParametersDTO
    public var wrappedNotesKey: String

    public init(currentAuthKey: String, newAuthKey: String, kdf: KDFParametersDTO, wrappedNotesKey: String) {
        self.currentAuthKey = currentAuthKey
        self.newAuthKey = newAuthKey
        self.kdf = kdf
        self.wrappedNotesKey = wrappedNotesKey
    }
}
