#if canImport(CryptoKit)
    import CommonCrypto
    import CryptoKit
    import Foundation

    /// `CryptoBackend` on Apple platforms: CryptoKit for AES-GCM and HMAC, CommonCrypto for
    /// PBKDF2 (CryptoKit has none). Stateless, so safe to call from any thread.
    ///
    /// Names are module-qualified where QuireCrypto declares a type of the same name (`HMAC`).
    enum CryptoKitBackend: CryptoBackend {
        static func sealAESGCM(
            _ plaintext: Data, key: SymmetricKey256, nonce: Data, associatedData: Data
        ) throws -> Data {
            do {
                let box = try AES.GCM.seal(
                    plaintext, using: SymmetricKey(data: key.data), nonce: AES.GCM.Nonce(data: nonce),
                    authenticating: associatedData)
                return box.ciphertext + box.tag
            } catch {
                throw CryptoError.libraryFailure.with(detail: "AES.GCM.seal failed: \(error)")
            }
        }

        static func openAESGCM(
            ciphertext: Data, tag: Data, key: SymmetricKey256, nonce: Data, associatedData: Data
        ) throws -> Data {
            do {
                let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
                return try AES.GCM.open(box, using: SymmetricKey(data: key.data), authenticating: associatedData)
            } catch CryptoKitError.authenticationFailure {
                throw CryptoError.authenticationFailed
            } catch {
                throw CryptoError.libraryFailure.with(detail: "AES.GCM.open failed: \(error)")
            }
        }

        static func pbkdf2SHA256(password: Data, salt: Data, iterations: Int, keyLength: Int) throws -> Data {
            var output = [UInt8](repeating: 0, count: keyLength)
            let status = password.withNonNullBytes { passwordBytes, passwordCount in
                salt.withNonNullBytes { saltBytes, saltCount in
                    UnsafeRawPointer(passwordBytes).withMemoryRebound(to: CChar.self, capacity: max(passwordCount, 1)) {
                        CCKeyDerivationPBKDF(
                            CCPBKDFAlgorithm(kCCPBKDF2), $0, passwordCount, saltBytes, saltCount,
                            CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), UInt32(iterations), &output, keyLength)
                    }
                }
            }
            guard status == kCCSuccess else {
                throw CryptoError.libraryFailure.with(detail: "CCKeyDerivationPBKDF failed with status \(status)")
            }
            return Data(output)
        }

        static func hmacSHA256(key: Data, data: Data) -> Data {
            let code = CryptoKit.HMAC<CryptoKit.SHA256>.authenticationCode(for: data, using: SymmetricKey(data: key))
            return Data(code)
        }

        static func constantTimeEquals(_ a: Data, _ b: Data) -> Bool {
            // Accumulate every difference instead of returning at the first one.
            var difference: UInt8 = 0
            for (x, y) in zip(a, b) { difference |= x ^ y }
            return difference == 0
        }
    }
#endif
