import Foundation

/// HMAC-based key derivation (RFC 5869) over SHA-256: turns key material that is already
/// uniformly random (a recovery key) into independent keys, one per `info` string.
///
/// It is fast on purpose: it adds no cost to guessing, so use it only on secrets that cannot be
/// guessed (128 bits or more). Passwords go through ``KeyDerivation`` (PBKDF2) instead.
public enum HKDF {
    /// The most bytes one derivation may produce (255 blocks of SHA-256, RFC 5869 §2.3).
    public static let maximumLength = 255 * 32

    /// `length` bytes derived from `inputKeyMaterial`, `salt` and `info`.
    ///
    /// Different `info` strings give keys that reveal nothing about each other.
    /// - Throws: `CryptoError.invalidParameter` when `length` is not in `1...maximumLength`.
    public static func sha256(
        inputKeyMaterial: Data, salt: Data, info: Data, length: Int
    ) throws -> Data {
        guard (1...maximumLength).contains(length) else {
            throw CryptoError.invalidParameter.with(detail: "HKDF output length \(length) is out of range")
        }
        // Extract (§2.2): an empty salt stands for a block of zeros.
        let pseudorandomKey = HMAC.sha256(key: salt.isEmpty ? Data(count: 32) : salt, data: inputKeyMaterial)
        // Expand (§2.3): T(i) = HMAC(PRK, T(i-1) ‖ info ‖ i).
        var output = Data()
        var block = Data()
        var counter: UInt8 = 1
        while output.count < length {
            block = HMAC.sha256(key: pseudorandomKey, data: block + info + Data([counter]))
            output += block
            counter &+= 1
        }
        return output.prefix(length)
    }
}
