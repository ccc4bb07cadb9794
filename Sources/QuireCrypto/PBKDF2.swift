import Foundation

/// Password-based key derivation (PBKDF2, RFC 8018).
public enum PBKDF2 {
    /// `keyLength` bytes derived from `password` and `salt` with PBKDF2-HMAC-SHA256.
    ///
    /// Runs `iterations` rounds on the calling thread: at 600,000 that is about a quarter of a
    /// second, so call it off the main actor. It cannot be cancelled once started.
    /// - Throws: `CryptoError.invalidParameter` if `iterations` or `keyLength` is below 1 or above
    ///   `Int32.max`; `CryptoError.inputTooLarge` for a password or salt over 2 GiB;
    ///   `CryptoError.libraryFailure` if the platform library fails.
    public static func sha256(password: Data, salt: Data, iterations: Int, keyLength: Int) throws -> Data {
        let limit = Int(Int32.max)
        guard (1...limit).contains(iterations) else {
            throw CryptoError.invalidParameter.with(detail: "PBKDF2 iterations must be 1...\(limit), got \(iterations)")
        }
        guard (1...limit).contains(keyLength) else {
            throw CryptoError.invalidParameter.with(detail: "PBKDF2 key length must be 1...\(limit), got \(keyLength)")
        }
        guard password.count <= limit, salt.count <= limit else { throw CryptoError.inputTooLarge }
        return try PlatformCrypto.pbkdf2SHA256(
            password: password, salt: salt, iterations: iterations, keyLength: keyLength)
    }
}
