#if canImport(CryptoKit)
    import CryptoKit
    import Foundation

    extension CryptoKitBackend {
        static func x25519PublicKey(privateKey: Data) throws -> Data {
            do {
                return try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey).publicKey
                    .rawRepresentation
            } catch {
                throw CryptoError.libraryFailure.with(detail: "Curve25519 private key refused: \(error)")
            }
        }

        static func x25519SharedSecret(privateKey: Data, publicKey: Data) throws -> Data {
            let secret: SharedSecret
            do {
                let mine = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey)
                let peer = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicKey)
                secret = try mine.sharedSecretFromKeyAgreement(with: peer)
            } catch {
                throw CryptoError.invalidParameter.with(detail: "the public key gives no shared secret: \(error)")
            }
            return secret.withUnsafeBytes { Data($0) }
        }
    }
#endif
