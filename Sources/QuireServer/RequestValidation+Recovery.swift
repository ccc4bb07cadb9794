import Foundation

/// A recovery key's proof and sealed notes key, validated (registration, replacing the key).
struct RecoveryMaterial: Sendable {
    var authKey: Data
    var wrappedNotesKey: Data
}

/// `POST /v1/accounts/recovery/wrapped-notes-key`, validated.
struct RecoveryWrappedKeyRequest: Sendable {
    var username: Username
    var recoveryAuthKey: Data
}

/// `POST /v1/accounts/recovery/password`, validated.
struct RecoverAccountRequest: Sendable {
    var username: Username
    var recoveryAuthKey: Data
    var newAuthKey: Data
    var kdf: ClientKDF
    var wrappedNotesKey: Data
    var deviceName: String
}

/// `PUT /v1/accounts/current/recovery`, validated.
struct SetRecoveryRequest: Sendable {
    var currentAuthKey: Data
    var recovery: RecoveryMaterial
}

/// The bodies of the recovery routes (issue 12, item 11). Each check names the field that is
/// wrong; unknown fields are ignored, as on the other account routes.
extension RequestValidation {
    struct LooseRecoveryMaterial: Decodable {
        var authKey: String?
        var wrappedNotesKey: String?
    }

    private struct LooseRecoveryWrappedKey: Decodable {
        var username: String?
        var recoveryAuthKey: String?
    }

    private struct LooseRecoverAccount: Decodable {
        var username: String?
        var recoveryAuthKey: String?
        var newAuthKey: String?
        var kdf: LooseKDF?
        var wrappedNotesKey: String?
        var deviceName: String?
    }

    private struct LooseSetRecovery: Decodable {
        var currentAuthKey: String?
        var recovery: LooseRecoveryMaterial?
    }

    static func recoveryWrappedKey(_ body: Data) throws(APIError) -> RecoveryWrappedKeyRequest {
        let loose = try object(
            LooseRecoveryWrappedKey.self, body, example: #"{"username", "recoveryAuthKey"}"#)
        return RecoveryWrappedKeyRequest(
            username: try username(loose.username),
            recoveryAuthKey: try authKey(loose.recoveryAuthKey, "recoveryAuthKey"))
    }

    static func recoverAccount(_ body: Data, minIterations: Int) throws(APIError) -> RecoverAccountRequest {
        let loose = try object(
            LooseRecoverAccount.self, body,
            example: #"{"username", "recoveryAuthKey", "newAuthKey", "kdf", "wrappedNotesKey", "deviceName"}"#)
        return RecoverAccountRequest(
            username: try username(loose.username),
            recoveryAuthKey: try authKey(loose.recoveryAuthKey, "recoveryAuthKey"),
            newAuthKey: try authKey(loose.newAuthKey, "newAuthKey"),
            kdf: try kdf(loose.kdf, minIterations: minIterations),
            wrappedNotesKey: try wrappedKey(loose.wrappedNotesKey),
            deviceName: try deviceName(loose.deviceName))
    }

    static func setRecovery(_ body: Data) throws(APIError) -> SetRecoveryRequest {
        let loose = try object(
            LooseSetRecovery.self, body,
            example: #"{"currentAuthKey", "recovery": {"authKey", "wrappedNotesKey"}}"#)
        guard let material = loose.recovery else {
            throw .invalidRequest(#"'recovery' is required: {"authKey", "wrappedNotesKey"}."#)
        }
        return SetRecoveryRequest(
            currentAuthKey: try authKey(loose.currentAuthKey, "currentAuthKey"),
            recovery: try recoveryMaterial(material, "recovery"))
    }

    /// `material` as sent under `field`.
    static func recoveryMaterial(_ material: LooseRecoveryMaterial, _ field: String) throws(APIError)
        -> RecoveryMaterial
    {
        RecoveryMaterial(
            authKey: try authKey(material.authKey, "\(field).authKey"),
            wrappedNotesKey: try wrappedKey(material.wrappedNotesKey, "\(field).wrappedNotesKey"))
    }
}
