#if !canImport(CryptoKit)
    import COpenSSL
    import Foundation

    extension OpenSSLBackend {
        /// The keyed states behind `SyntheticNonceSealer` on OpenSSL 3: an HMAC-SHA256 context
        /// keyed with the nonce key and an AES-256-GCM context keyed with the key, made once.
        /// Each seal copies them (`EVP_MAC_CTX_dup`, `EVP_CIPHER_CTX_copy`), so the templates are
        /// only ever read, from any thread at once, and never changed after `init`.
        final class KeyedSealer: @unchecked Sendable {
            // @unchecked Sendable: both templates are written in `init` only, then only copied.
            private let mac: OpaquePointer
            private let cipher: OpaquePointer

            init(key: SymmetricKey256, nonceKey: Data) {
                guard let algorithm = EVP_MAC_fetch(nil, "HMAC", nil), let mac = EVP_MAC_CTX_new(algorithm)
                else { preconditionFailure("OpenSSL HMAC unavailable: \(OpenSSLBackend.takeErrorMessage())") }
                EVP_MAC_free(algorithm)  // the context holds its own reference
                // An OSSL_PARAM keeps pointers to its name and value: both C strings must live
                // until EVP_MAC_init has read them (a temporary bridged from a literal does not:
                // the request fuzz target's AddressSanitizer caught that).
                let keyed = nonceKey.withNonNullBytes { keyBytes, keyCount in
                    "digest".withCString { name in
                        "SHA256".withCString { digest in
                            var parameters = [
                                OSSL_PARAM_construct_utf8_string(name, UnsafeMutablePointer(mutating: digest), 0),
                                OSSL_PARAM_construct_end(),
                            ]
                            return EVP_MAC_init(mac, keyBytes, keyCount, &parameters)
                        }
                    }
                }
                precondition(keyed == 1, "OpenSSL HMAC key failed: \(OpenSSLBackend.takeErrorMessage())")
                self.mac = mac

                guard let aes = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil), let cipher = EVP_CIPHER_CTX_new() else {
                    preconditionFailure("OpenSSL AES-256-GCM unavailable: \(OpenSSLBackend.takeErrorMessage())")
                }
                defer { EVP_CIPHER_free(aes) }  // the context holds its own reference
                let ready = key.data.withNonNullBytes { keyBytes, _ in
                    EVP_EncryptInit_ex(cipher, aes, nil, keyBytes, nil)
                }
                precondition(ready == 1, "OpenSSL AES-256-GCM key failed: \(OpenSSLBackend.takeErrorMessage())")
                self.cipher = cipher
            }

            deinit {
                EVP_MAC_CTX_free(mac)
                EVP_CIPHER_CTX_free(cipher)
            }

            /// `prefix` ‖ nonce ‖ ciphertext ‖ tag.
            func seal(_ plaintext: Data, associatedData: Data, prefix: UInt8) -> [UInt8] {
                let nonceCount = AESGCM.nonceByteCount
                var output = [UInt8](repeating: 0, count: 1 + nonceCount + plaintext.count + AESGCM.tagByteCount)
                output[0] = prefix
                output.withUnsafeMutableBufferPointer { buffer in
                    let nonce = buffer.baseAddress! + 1
                    syntheticNonce(plaintext, associatedData: associatedData, into: nonce)
                    encrypt(plaintext, associatedData: associatedData, nonce: nonce, into: nonce + nonceCount)
                }
                return output
            }

            /// The first 12 bytes of HMAC(nonce key, associated data ‖ 0 ‖ plaintext) into `out`.
            private func syntheticNonce(_ plaintext: Data, associatedData: Data, into out: UnsafeMutablePointer<UInt8>)
            {
                guard let context = EVP_MAC_CTX_dup(mac) else {
                    preconditionFailure("OpenSSL HMAC copy failed: \(OpenSSLBackend.takeErrorMessage())")
                }
                defer { EVP_MAC_CTX_free(context) }
                var zero: UInt8 = 0
                var digest = [UInt8](repeating: 0, count: 32)
                var length = 0
                let done =
                    associatedData.withNonNullBytes { EVP_MAC_update(context, $0, $1) } == 1
                    && EVP_MAC_update(context, &zero, 1) == 1
                    && plaintext.withNonNullBytes { EVP_MAC_update(context, $0, $1) } == 1
                    && EVP_MAC_final(context, &digest, &length, digest.count) == 1
                precondition(done && length == 32, "OpenSSL HMAC-SHA256 failed: \(OpenSSLBackend.takeErrorMessage())")
                out.update(from: digest, count: AESGCM.nonceByteCount)
            }

            /// Ciphertext ‖ tag of `plaintext` into `out` (its length plus 16 bytes).
            private func encrypt(
                _ plaintext: Data, associatedData: Data, nonce: UnsafePointer<UInt8>,
                into out: UnsafeMutablePointer<UInt8>
            ) {
                guard let context = EVP_CIPHER_CTX_new() else {
                    preconditionFailure("OpenSSL cipher context failed: \(OpenSSLBackend.takeErrorMessage())")
                }
                defer { EVP_CIPHER_CTX_free(context) }
                var written: Int32 = 0
                var ignored: Int32 = 0
                var done =
                    EVP_CIPHER_CTX_copy(context, cipher) == 1
                    && EVP_EncryptInit_ex(context, nil, nil, nil, nonce) == 1
                if done, !associatedData.isEmpty {
                    done =
                        associatedData.withNonNullBytes {
                            EVP_EncryptUpdate(context, nil, &ignored, $0, Int32($1))
                        } == 1
                }
                if done, !plaintext.isEmpty {
                    done = plaintext.withNonNullBytes { EVP_EncryptUpdate(context, out, &written, $0, Int32($1)) } == 1
                }
                done =
                    done && EVP_EncryptFinal_ex(context, out + Int(written), &ignored) == 1
                    && EVP_CIPHER_CTX_ctrl(
                        context, EVP_CTRL_GCM_GET_TAG, Int32(AESGCM.tagByteCount), out + plaintext.count) == 1
                precondition(done, "OpenSSL AES-256-GCM failed: \(OpenSSLBackend.takeErrorMessage())")
            }
        }
    }
#endif
