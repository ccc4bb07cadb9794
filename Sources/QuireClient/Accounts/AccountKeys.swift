import Foundation
import QuireCrypto
import QuireWire

/// The client's rules for account keys (DESIGN.md "encryption"): which key-derivation parameters it
/// accepts, and what the wrapped notes key is bound to.
enum AccountKeys {
    /// The only algorithm this client derives keys with.
    static let algorithm = "pbkdf2-sha256"

    /// Above this a server could make every sign-in hang (a derivation of minutes): refused too.
    static let maximumIterations = 50 * KeyDerivation.defaultIterations

    /// What the wrapped notes key is bound to, so the server cannot hand one account's wrapped key to
    /// another account's sign-in.
    /// Usernames are case-insensitive on the server, so the binding uses the lowercased name: a
    /// device that signs in as "Alice" unwraps the key "alice" registered.
    static func notesKeyAssociatedData(username: String) -> Data {
        Data("quire-notes-key-v1|\(username.lowercased())".utf8)
    }

    /// What the recovery copy of the notes key is bound to: the account, as the password's copy,
    /// and which copy it is, so the server cannot pass one copy off as the other.
    static func recoveryNotesKeyAssociatedData(username: String) -> Data {
        Data("quire-notes-key-recovery-v1|\(username.lowercased())".utf8)
    }

    /// The recovery material to send for `recoveryKey`: its auth key, and `notesKey` sealed under
    /// its wrapping key, bound to `username`. Neither is the recovery key.
    static func recoveryMaterial(
        _ recoveryKey: RecoveryKey, notesKey: SymmetricKey256, username: String
    ) throws -> RecoveryMaterialDTO {
        let wrapped = try KeyDerivation.wrap(
            notesKey: notesKey, with: recoveryKey.wrappingKey,
            associatedData: recoveryNotesKeyAssociatedData(username: username))
        return RecoveryMaterialDTO(
            authKey: recoveryKey.authKey.data.base64EncodedString(), wrappedNotesKey: wrapped.base64EncodedString())
    }

    /// A password's material for the server: keys derived from `password` with a new random salt
    /// (`iterations` rounds), and `notesKey` wrapped with the master key, bound to `username`.
    /// Off the concurrency pool, as ``derive(password:salt:iterations:)``.
    static func newPasswordMaterial(
        _ password: String, notesKey: SymmetricKey256, username: String, iterations: Int
    ) async throws -> (kdf: KDFParametersDTO, keys: KeyDerivation.Keys, wrappedNotesKey: Data) {
        let salt = KeyDerivation.randomSalt()
        let kdf = KDFParametersDTO(algorithm: algorithm, salt: salt.base64EncodedString(), iterations: iterations)
        let keys = try await derive(password: password, salt: salt, iterations: iterations)
        let wrapped = try KeyDerivation.wrap(
            notesKey: notesKey, with: keys.masterKey, associatedData: notesKeyAssociatedData(username: username))
        return (kdf, keys, wrapped)
    }

    /// Refuses a weak new password before anything is derived or sent.
    /// - Throws: ``AccountError/weakPassword`` with ``PasswordStrength/message``.
    static func checkNewPassword(_ password: String, username: String) throws {
        let strength = PasswordStrength(password: password, username: username)
        guard strength.isAcceptable else {
            throw AccountError.weakPassword.with(message: strength.message)
        }
    }

    /// The salt of `kdf`, if the parameters are ones this client will derive with.
    ///
    /// A hostile or broken server could ask for a cheap derivation (few iterations, no salt) and then
    /// guess the password from the auth key quickly, so those are refused before any key is derived.
    /// - Throws: ``AccountError/unsafeKeyDerivation`` for an unknown algorithm, fewer iterations
    ///   than `minimumIterations` or more than ``maximumIterations``, or a salt that is not base64 of
    ///   at least ``KeyDerivation/saltByteCount`` bytes.
    static func checkedSalt(_ kdf: KDFParametersDTO, minimumIterations: Int) throws -> Data {
        guard kdf.algorithm == algorithm else {
            throw AccountError.unsafeKeyDerivation.with(
                message: "The server asked for key derivation '\(kdf.algorithm)'; only \(algorithm) is supported.")
        }
        guard kdf.iterations >= minimumIterations else {
            throw AccountError.unsafeKeyDerivation.with(
                message: "The server asked for \(kdf.iterations) key-derivation iterations; "
                    + "at least \(minimumIterations) are required. Refusing to sign in.")
        }
        guard kdf.iterations <= maximumIterations else {
            throw AccountError.unsafeKeyDerivation.with(
                message: "The server asked for \(kdf.iterations) key-derivation iterations; "
                    + "at most \(maximumIterations) are accepted.")
        }
        guard let salt = Data(base64Encoded: kdf.salt), salt.count >= KeyDerivation.saltByteCount else {
            throw AccountError.unsafeKeyDerivation.with(
                message: "The server's salt is missing or shorter than \(KeyDerivation.saltByteCount) bytes.")
        }
        return salt
    }

    /// Derives the keys on Quire's own threads (`BlockingWork`), off the concurrency pool (about a
    /// quarter of a second at 600,000 iterations).
    /// It cannot be cancelled once started.
    static func derive(password: String, salt: Data, iterations: Int) async throws -> KeyDerivation.Keys {
        try await BlockingWork.run {
            try KeyDerivation.deriveKeys(password: password, salt: salt, iterations: iterations)
        }
    }
}
