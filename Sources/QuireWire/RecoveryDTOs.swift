import Foundation

/// What the server keeps of an account's recovery key: proof material and a sealed copy of the
/// notes key, never the recovery key itself. Part of `POST /v1/accounts` and
/// `PUT /v1/accounts/current/recovery`.
public struct RecoveryMaterialDTO: Codable, Sendable, Equatable {
    /// Base64 of the 32-byte recovery auth key (HKDF of the recovery key); the server stores only
    /// a slow salted hash of it.
    public var authKey: String
    /// Base64 of the notes key sealed with the recovery wrapping key (AES-GCM combined form).
    public var wrappedNotesKey: String

    public init(authKey: String, wrappedNotesKey: String) {
        self.authKey = authKey
        self.wrappedNotesKey = wrappedNotesKey
    }
}

/// `POST /v1/accounts/recovery/wrapped-notes-key` → ``RecoveryWrappedKeyDTO``, or 401
/// `invalid_credentials` (the same for an unknown username or an account without a recovery
/// key), or 429 with `Retry-After`. Changes nothing.
public struct RecoveryWrappedKeyRequestDTO: Codable, Sendable, Equatable {
    public var username: String
    public var recoveryAuthKey: String

    public init(username: String, recoveryAuthKey: String) {
        self.username = username
        self.recoveryAuthKey = recoveryAuthKey
    }
}

/// The recovery copy of the notes key, for the device to open with the recovery key.
public struct RecoveryWrappedKeyDTO: Codable, Sendable, Equatable {
    public var wrappedNotesKey: String

    public init(wrappedNotesKey: String) {
        self.wrappedNotesKey = wrappedNotesKey
    }
}

/// `POST /v1/accounts/recovery/password` → ``SessionDTO`` (this device signed in), 401
/// `invalid_credentials`, or 429: a new password set with the recovery key. Every earlier
/// session of the account is signed out; the recovery key keeps working.
public struct RecoverAccountRequestDTO: Codable, Sendable, Equatable {
    public var username: String
    public var recoveryAuthKey: String
    /// Base64 of the auth key derived from the new password.
    public var newAuthKey: String
    public var kdf: KDFParametersDTO
    /// Base64 of the notes key sealed with the new password's master key.
    public var wrappedNotesKey: String
    public var deviceName: String

    public init(
        username: String, recoveryAuthKey: String, newAuthKey: String, kdf: KDFParametersDTO,
        wrappedNotesKey: String, deviceName: String
    ) {
        self.username = username
        self.recoveryAuthKey = recoveryAuthKey
        self.newAuthKey = newAuthKey
        self.kdf = kdf
        self.wrappedNotesKey = wrappedNotesKey
        self.deviceName = deviceName
    }
}

/// `PUT /v1/accounts/current/recovery` (bearer auth) → 204: makes or replaces the account's
/// recovery key; the one before it stops working. The current password's auth key is required,
/// so a signed-in device alone cannot take over the account.
public struct SetRecoveryRequestDTO: Codable, Sendable, Equatable {
    public var currentAuthKey: String
    public var recovery: RecoveryMaterialDTO

    public init(currentAuthKey: String, recovery: RecoveryMaterialDTO) {
        self.currentAuthKey = currentAuthKey
        self.recovery = recovery
    }
}
