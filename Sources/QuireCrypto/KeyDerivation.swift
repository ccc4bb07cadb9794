import Foundation

/// The account key scheme (DESIGN.md "encryption", issue 4): the password yields two keys, one
/// to prove who you are and one that never leaves the device and unwraps the notes key.
///
/// PBKDF2-HMAC-SHA256(password, salt, iterations) gives 64 bytes: the first 32 are `authKey`
/// (sent to the server at sign-up and sign-in), the last 32 `masterKey` (kept on the device).
/// Knowing `authKey` does not reveal `masterKey`: they are different blocks of PBKDF2's output.
/// The notes themselves are sealed under a random notes key, which is stored on the server
/// wrapped (AES-GCM sealed) under `masterKey`, so a password change re-wraps one key.
public enum KeyDerivation {
    /// The iteration count for new accounts: OWASP's 2023 figure for PBKDF2-HMAC-SHA256.
    ///
    /// The kdf parameters come back from the server at sign-in; a client should refuse fewer
    /// iterations than this, or a hostile server could ask for a cheap derivation and then guess
    /// the password from `authKey` quickly. Tests may use fewer.
    public static let defaultIterations = 600_000

    /// The length of salts made by `randomSalt()`.
    public static let saltByteCount = 16

    /// The two keys derived from the password.
    public struct Keys: Sendable, Equatable {
        /// Proves the password to the server. Sent at sign-up and sign-in.
        public let authKey: SymmetricKey256
        /// Wraps and unwraps the notes key. Never leaves the device.
        public let masterKey: SymmetricKey256
    }

    /// A new random salt for an account.
    public static func randomSalt() -> Data {
        SecureRandom.bytes(saltByteCount)
    }

    /// Derives `authKey` and `masterKey` from `password`.
    ///
    /// The password is normalized to Unicode NFC and encoded as UTF-8 first, so the same password
    /// typed on keyboards that compose accents differently derives the same keys.
    /// Takes about a quarter of a second at `defaultIterations`; call it off the main actor.
    /// - Throws: `CryptoError.invalidParameter` if `iterations` is out of range (see `PBKDF2`).
    public static func deriveKeys(
        password: String, salt: Data, iterations: Int = defaultIterations
    ) throws -> Keys {
        let passwordBytes = Data(password.precomposedStringWithCanonicalMapping.utf8)
        let derived = try PBKDF2.sha256(
            password: passwordBytes, salt: salt, iterations: iterations, keyLength: 2 * SymmetricKey256.byteCount)
        // PBKDF2 returned exactly 64 bytes, so both halves are 32.
        return Keys(
            authKey: SymmetricKey256(data: derived.prefix(SymmetricKey256.byteCount))!,
            masterKey: SymmetricKey256(data: derived.suffix(SymmetricKey256.byteCount))!)
    }

    /// Seals `notesKey` under `masterKey` for storage on the server (AES-256-GCM, combined form).
    ///
    /// `associatedData` should name what the key belongs to (e.g. the account), so a wrapped key
    /// cannot be swapped in for another account's. The result is 60 bytes and differs each call.
    /// - Throws: `CryptoError.libraryFailure` if the platform library fails.
    public static func wrap(
        notesKey: SymmetricKey256, with masterKey: SymmetricKey256, associatedData: Data
    ) throws -> Data {
        try AESGCM.seal(notesKey.data, key: masterKey, associatedData: associatedData)
    }

    /// Opens a notes key made by `wrap` with the same `masterKey` and `associatedData`.
    ///
    /// - Throws: `CryptoError.authenticationFailed` for a wrong master key (a wrong password),
    ///   wrong associated data or tampered bytes; `CryptoError.inputTooShort` for truncated input;
    ///   `CryptoError.invalidKeyLength` if what was sealed is not a 32-byte key.
    public static func unwrap(
        _ wrappedNotesKey: Data, with masterKey: SymmetricKey256, associatedData: Data
    ) throws -> SymmetricKey256 {
        let opened = try AESGCM.open(wrappedNotesKey, key: masterKey, associatedData: associatedData)
        guard let notesKey = SymmetricKey256(data: opened) else { throw CryptoError.invalidKeyLength }
        return notesKey
    }
}
