import Foundation
import QuireWire

/// `POST /v1/accounts`, validated.
struct NewAccountRequest: Sendable {
    var username: Username
    var authKey: Data
    var kdf: ClientKDF
    var wrappedNotesKey: Data
    /// Absent from clients older than recovery keys.
    var recovery: RecoveryMaterial?
}

/// `POST /v1/sessions`, validated.
struct SignInRequest: Sendable {
    var username: Username
    var authKey: Data
    var deviceName: String
}

/// `PUT /v1/accounts/current/password`, validated.
struct PasswordChangeRequest: Sendable {
    var currentAuthKey: Data
    var newAuthKey: Data
    var kdf: ClientKDF
    var wrappedNotesKey: Data
}

/// The client's key-derivation parameters (`pbkdf2-sha256` is the only algorithm).
struct ClientKDF: Sendable {
    var salt: Data
    var iterations: Int
}

/// The bodies of the accounts and sessions routes. Each check names the field that is wrong;
/// unknown fields are ignored so newer clients keep working.
extension RequestValidation {
    static let authKeyBytes = 32
    static let wrappedKeyBytes = 28...1024
    static let kdfSaltBytes = 16...1024
    static let maxKDFIterations = 100_000_000
    static let maxDeviceNameLength = 200
    static let maxRefreshTokenLength = 512
    /// Account bodies are a few hundred bytes; anything near this is not a client of ours.
    static let maxAccountBodyBytes = 64 * 1024

    struct LooseKDF: Decodable {
        var algorithm: String?
        var salt: String?
        var iterations: Int?
    }

    private struct LooseNewAccount: Decodable {
        var username: String?
        var authKey: String?
        var kdf: LooseKDF?
        var wrappedNotesKey: String?
        var recovery: LooseRecoveryMaterial?
    }

    private struct LooseSignIn: Decodable {
        var username: String?
        var authKey: String?
        var deviceName: String?
    }

    private struct LooseRefresh: Decodable {
        var refreshToken: String?
    }

    private struct LoosePasswordChange: Decodable {
        var currentAuthKey: String?
        var newAuthKey: String?
        var kdf: LooseKDF?
        var wrappedNotesKey: String?
    }

    static func newAccount(_ body: Data, minIterations: Int) throws(APIError) -> NewAccountRequest {
        let loose = try object(
            LooseNewAccount.self, body,
            example: #"{"username", "authKey", "kdf": {"algorithm", "salt", "iterations"}, "#
                + #""wrappedNotesKey", "recovery"?: {"authKey", "wrappedNotesKey"}}"#)
        var recovery: RecoveryMaterial?
        if let material = loose.recovery { recovery = try recoveryMaterial(material, "recovery") }
        return NewAccountRequest(
            username: try username(loose.username), authKey: try authKey(loose.authKey, "authKey"),
            kdf: try kdf(loose.kdf, minIterations: minIterations),
            wrappedNotesKey: try wrappedKey(loose.wrappedNotesKey), recovery: recovery)
    }

    static func signIn(_ body: Data) throws(APIError) -> SignInRequest {
        let loose = try object(
            LooseSignIn.self, body, example: #"{"username", "authKey", "deviceName"}"#)
        let name = try username(loose.username)
        let key = try authKey(loose.authKey, "authKey")
        return SignInRequest(username: name, authKey: key, deviceName: try deviceName(loose.deviceName))
    }

    /// The `deviceName` of a body that opens a session.
    static func deviceName(_ text: String?) throws(APIError) -> String {
        guard let device = text, device.count <= maxDeviceNameLength else {
            throw .invalidRequest(
                "'deviceName' is required: a string of at most \(maxDeviceNameLength) characters "
                    + "naming this device, such as \"laptop\".")
        }
        return device
    }

    /// The refresh token of `POST /v1/sessions/refresh`, as sent.
    static func refreshToken(_ body: Data) throws(APIError) -> String {
        let loose = try object(LooseRefresh.self, body, example: #"{"refreshToken": "…"}"#)
        guard let token = loose.refreshToken, (1...maxRefreshTokenLength).contains(token.count)
        else {
            throw .invalidRequest(
                "'refreshToken' is required: the refresh token of your latest session answer.")
        }
        return token
    }

    static func passwordChange(_ body: Data, minIterations: Int) throws(APIError)
        -> PasswordChangeRequest
    {
        let loose = try object(
            LoosePasswordChange.self, body,
            example: #"{"currentAuthKey", "newAuthKey", "kdf", "wrappedNotesKey"}"#)
        return PasswordChangeRequest(
            currentAuthKey: try authKey(loose.currentAuthKey, "currentAuthKey"),
            newAuthKey: try authKey(loose.newAuthKey, "newAuthKey"),
            kdf: try kdf(loose.kdf, minIterations: minIterations),
            wrappedNotesKey: try wrappedKey(loose.wrappedNotesKey))
    }

    /// The username of a body or path, normalised; 400 `invalid_username` otherwise.
    static func username(_ raw: String?) throws(APIError) -> Username {
        guard let raw, let name = Username(raw) else { throw .invalidUsername }
        return name
    }

    // MARK: - Fields

    static func authKey(_ text: String?, _ field: String) throws(APIError) -> Data {
        guard let text, let key = Data(base64Encoded: text), key.count == authKeyBytes else {
            let source = field.lowercased().contains("recovery") ? "recovery key" : "password"
            throw .invalidRequest(
                "'\(field)' is required: base64 of the \(authKeyBytes)-byte auth key derived from "
                    + "the \(source) (never the \(source) itself).")
        }
        return key
    }

    static func wrappedKey(_ text: String?, _ field: String = "wrappedNotesKey") throws(APIError) -> Data {
        guard let text, let key = Data(base64Encoded: text), wrappedKeyBytes.contains(key.count)
        else {
            throw .invalidRequest(
                "'\(field)' is required: base64 of the sealed notes key, "
                    + "\(wrappedKeyBytes.lowerBound) to \(wrappedKeyBytes.upperBound) bytes.")
        }
        return key
    }

    static func kdf(_ loose: LooseKDF?, minIterations: Int) throws(APIError) -> ClientKDF {
        guard let loose else {
            throw .invalidRequest(
                #"'kdf' is required: {"algorithm": "pbkdf2-sha256", "salt", "iterations"}."#)
        }
        guard loose.algorithm == "pbkdf2-sha256" else {
            throw .invalidRequest("'kdf.algorithm' must be \"pbkdf2-sha256\".")
        }
        guard let text = loose.salt, let salt = Data(base64Encoded: text),
            kdfSaltBytes.contains(salt.count)
        else {
            throw .invalidRequest(
                "'kdf.salt' must be base64 of \(kdfSaltBytes.lowerBound) to "
                    + "\(kdfSaltBytes.upperBound) random bytes.")
        }
        guard let iterations = loose.iterations,
            (minIterations...max(minIterations, maxKDFIterations)).contains(iterations)
        else {
            throw .invalidRequest(
                "'kdf.iterations' must be a whole number from \(minIterations) to "
                    + "\(maxKDFIterations).")
        }
        return ClientKDF(salt: salt, iterations: iterations)
    }

    /// Decodes a JSON object into a struct of optional fields; a field of the wrong type is named.
    static func object<T: Decodable>(_ type: T.Type, _ body: Data, example: String)
        throws(APIError) -> T
    {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        } catch {
            throw .invalidJSON(
                body.isEmpty ? "the body is empty" : "it does not parse", example: example)
        }
        guard json is [String: Any] else {
            throw .invalidRequest("The body must be a JSON object: \(example).")
        }
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch let error as DecodingError {
            let field = codingPath(error).map(\.stringValue).joined(separator: ".")
            throw .invalidRequest(
                field.isEmpty
                    ? "The body does not have the expected shape: \(example)."
                    : "'\(field)' has the wrong type; the body is \(example).")
        } catch {
            throw .invalidRequest("The body could not be read: \(error).")
        }
    }

    private static func codingPath(_ error: DecodingError) -> [any CodingKey] {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context),
            .keyNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath
        @unknown default:
            []
        }
    }
}

extension RequestValidation {
    /// A session's id from the path: ``WireRoutes/sessionIDLength`` lowercase hex digits.
    static func sessionID(_ raw: String) throws(APIError) -> String {
        guard raw.count == WireRoutes.sessionIDLength,
            raw.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) })
        else {
            throw .invalidRequest(
                "A session id is \(WireRoutes.sessionIDLength) lowercase hex digits, as GET /v1/sessions lists it.")
        }
        return raw
    }
}
