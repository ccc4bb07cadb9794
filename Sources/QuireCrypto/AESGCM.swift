import Foundation

/// AES-256-GCM authenticated encryption, in CryptoKit's combined layout:
/// nonce (12 bytes) ‖ ciphertext (as long as the plaintext) ‖ tag (16 bytes).
///
/// This is the layout of a note's `payload` (DESIGN.md, API v1), so data sealed on Linux opens
/// with CryptoKit's `AES.GCM.SealedBox(combined:)` and the other way round.
public enum AESGCM {
    /// The nonce length: 96 bits, the size GCM is designed for.
    public static let nonceByteCount = 12
    /// The authentication tag length: the full 128 bits.
    public static let tagByteCount = 16
    /// Bytes that sealing adds to the plaintext.
    public static let overheadByteCount = nonceByteCount + tagByteCount

    /// Encrypts and authenticates `plaintext` under `key`, binding `associatedData` (which is
    /// authenticated but not encrypted, and must be given again to open).
    ///
    /// Every call draws a fresh random nonce, so sealing the same plaintext twice gives different
    /// output. With random 96-bit nonces one key stays safe for about 2^32 seals.
    /// - Returns: nonce ‖ ciphertext ‖ tag, `plaintext.count + 28` bytes.
    /// - Throws: `CryptoError.inputTooLarge` over 2 GiB; `CryptoError.libraryFailure` if the platform
    ///   library fails.
    public static func seal(_ plaintext: Data, key: SymmetricKey256, associatedData: Data) throws -> Data {
        try seal(plaintext, key: key, nonce: SecureRandom.bytes(nonceByteCount), associatedData: associatedData)
    }

    /// `seal` with a caller-chosen nonce: for published test vectors, and for a synthetic nonce
    /// (an HMAC of the plaintext and associated data under a key of its own, as the server's
    /// cursor seal does), which repeats only for the same input.
    ///
    /// Reusing a nonce under the same key for another plaintext reveals the XOR of the two and
    /// lets anyone forge tags: anything else must call `seal(_:key:associatedData:)`.
    /// - Throws: `CryptoError.invalidParameter` unless `nonce` is 12 bytes; otherwise as `seal`.
    package static func seal(
        _ plaintext: Data, key: SymmetricKey256, nonce: Data, associatedData: Data
    ) throws -> Data {
        guard nonce.count == nonceByteCount else {
            throw CryptoError.invalidParameter.with(detail: "an AES-GCM nonce must be \(nonceByteCount) bytes")
        }
        try checkSize(plaintext)
        try checkSize(associatedData)
        let sealed = try PlatformCrypto.sealAESGCM(plaintext, key: key, nonce: nonce, associatedData: associatedData)
        return Data(nonce) + sealed
    }

    /// Checks and decrypts data made by `seal` with the same `key` and `associatedData`.
    ///
    /// Never traps on bad input: any byte string is either opened or rejected with an error.
    /// No plaintext is returned unless the tag verifies.
    /// - Throws: `CryptoError.inputTooShort` if `combined` is shorter than nonce plus tag (28 bytes);
    ///   `CryptoError.authenticationFailed` for a wrong key, wrong associated data or any changed
    ///   byte; `CryptoError.inputTooLarge` over 2 GiB; `CryptoError.libraryFailure` if the platform
    ///   library fails.
    public static func open(_ combined: Data, key: SymmetricKey256, associatedData: Data) throws -> Data {
        guard combined.count >= overheadByteCount else { throw CryptoError.inputTooShort }
        try checkSize(combined)
        try checkSize(associatedData)
        // Views into `combined`, which works whether or not it is itself a slice.
        return try PlatformCrypto.openAESGCM(
            ciphertext: combined.dropFirst(nonceByteCount).dropLast(tagByteCount),
            tag: combined.suffix(tagByteCount), key: key, nonce: combined.prefix(nonceByteCount),
            associatedData: associatedData)
    }

    private static func checkSize(_ data: Data) throws {
        // OpenSSL's EVP update functions take an `int` length.
        guard data.count <= Int(Int32.max) else { throw CryptoError.inputTooLarge }
    }
}
