import Foundation

/// The primitives each platform supplies: CryptoKit and CommonCrypto on Apple
/// (`CryptoKitBackend`), OpenSSL libcrypto 3 on Linux (`OpenSSLBackend`).
///
/// Everything above this seam (framing, range checks, key splitting) is shared, so the two
/// implementations stay small and are held to the same shape by the compiler. Callers have
/// already checked lengths and ranges; implementations may rely on the stated preconditions.
protocol CryptoBackend {
    /// AES-256-GCM: ciphertext ‖ 16-byte tag. `nonce` is 12 bytes; all sizes fit in `Int32`.
    static func sealAESGCM(_ plaintext: Data, key: SymmetricKey256, nonce: Data, associatedData: Data) throws -> Data

    /// AES-256-GCM decryption. `nonce` is 12 bytes and `tag` 16; throws
    /// `CryptoError.authenticationFailed` when the tag does not verify.
    static func openAESGCM(
        ciphertext: Data, tag: Data, key: SymmetricKey256, nonce: Data, associatedData: Data
    ) throws -> Data

    /// PBKDF2-HMAC-SHA256. `iterations` and `keyLength` are in `1...Int32.max`.
    static func pbkdf2SHA256(password: Data, salt: Data, iterations: Int, keyLength: Int) throws -> Data

    /// HMAC-SHA256, 32 bytes.
    static func hmacSHA256(key: Data, data: Data) -> Data

    /// Byte equality in constant time. `a` and `b` have the same, non-zero length.
    static func constantTimeEquals(_ a: Data, _ b: Data) -> Bool

    /// X25519 (RFC 7748): the 32-byte public key of the 32-byte private key `privateKey`.
    static func x25519PublicKey(privateKey: Data) throws -> Data

    /// X25519: the 32-byte shared secret of `privateKey` and the peer's 32-byte `publicKey`.
    /// Throws `CryptoError.invalidParameter` for a public key of small order (all-zero secret).
    static func x25519SharedSecret(privateKey: Data, publicKey: Data) throws -> Data
}

#if canImport(CryptoKit)
    typealias PlatformCrypto = CryptoKitBackend
#else
    typealias PlatformCrypto = OpenSSLBackend
#endif

extension Data {
    /// Calls `body` with a pointer to the bytes that is never null, even when the data is empty:
    /// some C APIs reject a null buffer even with a zero length.
    func withNonNullBytes<Result>(_ body: (UnsafePointer<UInt8>, Int) throws -> Result) rethrows -> Result {
        if isEmpty {
            var placeholder: UInt8 = 0
            return try withUnsafePointer(to: &placeholder) { try body($0, 0) }
        }
        return try withUnsafeBytes { raw in
            // Non-empty Data always has a base address.
            try body(raw.bindMemory(to: UInt8.self).baseAddress!, raw.count)
        }
    }
}
