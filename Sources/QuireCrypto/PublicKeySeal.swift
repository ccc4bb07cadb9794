import Foundation

/// Sealing a small secret (a trip's key) to someone's X25519 public key, so only the holder of
/// the private key can open it: an ephemeral-static agreement, as in HPKE's base mode.
///
/// Layout: version `0x01` ‖ ephemeral public key (32) ‖ AES-256-GCM combined (nonce ‖ ciphertext
/// ‖ tag). The key is HKDF-SHA256 of the shared secret with salt = ephemeral public key ‖
/// recipient public key and info = `quire-seal-v1`; the caller's `associatedData` is bound by
/// GCM (for a trip key: `quire-trip-share-v1|<trip>|<recipient account>`), so a sealed key moved
/// to another trip or person does not open. A fresh ephemeral key per seal: two seals differ.
public enum PublicKeySeal {
    static let version: UInt8 = 1
    static let info = Data("quire-seal-v1".utf8)

    /// `plaintext` sealed to `recipient` (a 32-byte X25519 public key).
    public static func seal(_ plaintext: Data, to recipient: Data, associatedData: Data) throws -> Data {
        let ephemeral = X25519.PrivateKey()
        let ephemeralPublic = try ephemeral.publicKey()
        let key = try derivedKey(
            secret: ephemeral.sharedSecret(with: recipient), ephemeral: ephemeralPublic, recipient: recipient)
        return Data([version]) + ephemeralPublic
            + (try AESGCM.seal(plaintext, key: key, associatedData: associatedData))
    }

    /// Opens what ``seal(_:to:associatedData:)`` made for `privateKey`'s public key with the
    /// same associated data.
    /// - Throws: `CryptoError.inputTooShort` or `.invalidParameter` (unknown version) for what is
    ///   not a seal; `CryptoError.authenticationFailed` for another key, other associated data or
    ///   any changed byte.
    public static func open(_ sealed: Data, with privateKey: X25519.PrivateKey, associatedData: Data) throws -> Data {
        let bytes = Data(sealed)
        guard bytes.count >= 1 + X25519.keyByteCount + AESGCM.overheadByteCount else {
            throw CryptoError.inputTooShort
        }
        guard bytes[0] == version else {
            throw CryptoError.invalidParameter.with(detail: "unknown sealed-key version \(bytes[0])")
        }
        let ephemeralPublic = bytes.subdata(in: 1..<(1 + X25519.keyByteCount))
        let key = try derivedKey(
            secret: privateKey.sharedSecret(with: ephemeralPublic), ephemeral: ephemeralPublic,
            recipient: privateKey.publicKey())
        return try AESGCM.open(
            bytes.subdata(in: (1 + X25519.keyByteCount)..<bytes.count), key: key, associatedData: associatedData)
    }

    private static func derivedKey(secret: Data, ephemeral: Data, recipient: Data) throws -> SymmetricKey256 {
        let bytes = try HKDF.sha256(
            inputKeyMaterial: secret, salt: ephemeral + recipient, info: info, length: SymmetricKey256.byteCount)
        guard let key = SymmetricKey256(data: bytes) else { throw CryptoError.invalidKeyLength }
        return key
    }
}
