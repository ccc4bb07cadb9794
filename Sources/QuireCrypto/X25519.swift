import Foundation

/// X25519 key agreement (RFC 7748): the account's key pair for sharing trips.
///
/// The private key is 32 random bytes (the clamping RFC 7748 asks for happens inside the
/// agreement, in OpenSSL and CryptoKit alike); it never leaves the device unsealed.
public enum X25519 {
    /// The length of a private key, a public key and a shared secret.
    public static let keyByteCount = 32

    /// A private key, redacted from descriptions.
    public struct PrivateKey: Sendable, Equatable, CustomStringConvertible {
        public let rawRepresentation: Data

        /// A new random private key.
        public init() {
            rawRepresentation = SecureRandom.bytes(X25519.keyByteCount)
        }

        /// - Throws: `CryptoError.invalidKeyLength` unless `rawRepresentation` is 32 bytes.
        public init(rawRepresentation: Data) throws {
            guard rawRepresentation.count == X25519.keyByteCount else { throw CryptoError.invalidKeyLength }
            self.rawRepresentation = Data(rawRepresentation)
        }

        /// The public key to publish.
        public func publicKey() throws -> Data {
            try PlatformCrypto.x25519PublicKey(privateKey: rawRepresentation)
        }

        /// The secret this key shares with the holder of `publicKey`.
        /// - Throws: `CryptoError.invalidKeyLength` unless `publicKey` is 32 bytes;
        ///   `CryptoError.invalidParameter` for a key of small order, whose secret is all zeros.
        public func sharedSecret(with publicKey: Data) throws -> Data {
            guard publicKey.count == X25519.keyByteCount else { throw CryptoError.invalidKeyLength }
            let secret = try PlatformCrypto.x25519SharedSecret(
                privateKey: rawRepresentation, publicKey: Data(publicKey))
            guard secret.contains(where: { $0 != 0 }) else {
                throw CryptoError.invalidParameter.with(detail: "the public key gives no shared secret (small order)")
            }
            return secret
        }

        public var description: String { "X25519.PrivateKey(redacted)" }
    }
}
