import Foundation

/// Keyed message authentication (RFC 2104).
public enum HMAC {
    /// The 32-byte HMAC-SHA256 of `data` under `key` (any length, including empty).
    ///
    /// Deterministic: the server uses it to give unknown usernames stable, fake kdf parameters.
    /// Traps only if the platform library fails to allocate, like `SHA256Digest.hash`.
    public static func sha256(key: Data, data: Data) -> Data {
        PlatformCrypto.hmacSHA256(key: key, data: data)
    }
}
