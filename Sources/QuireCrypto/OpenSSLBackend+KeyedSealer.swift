#if !canImport(CryptoKit)
    import COpenSSL
    import Foundation

    extension OpenSSLBackend {
        /// The keyed states behind `SyntheticNonceSealer` on OpenSSL 3: an HMAC-SHA256 context
        /// keyed with the nonce key and an AES-256-GCM context keyed with the key, made once.
        /// A seal takes a pair of working copies from `spare` (or copies the templates,
        /// `EVP_MAC_CTX_dup` and `EVP_CIPHER_CTX_copy`, when none is spare), starts them over with
        /// their keys kept (`EVP_MAC_init` with no key, a new IV), and puts them back: one seal
        /// on every write's answer no longer allocates and frees two contexts. The templates are
        /// only ever read, from any thread at once; a working pair is used by one seal at a time.
        final class KeyedSealer: @unchecked Sendable {
            // @unchecked Sendable: both templates are written in `init` only, then only copied;
            // `spare` is guarded by `spareLock`.
            private let mac: OpaquePointer
            private let cipher: OpaquePointer
            private let spareLock = NSLock()
            private var spare: [(mac: OpaquePointer, cipher: OpaquePointer)] = []
            /// The most working pairs kept between seals: more than the threads that seal at once.
            private static let maxSpare = 16

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
                for pair in spare {
                    EVP_MAC_CTX_free(pair.mac)
                    EVP_CIPHER_CTX_free(pair.cipher)
                }
            }

            /// `prefix` ‖ nonce ‖ ciphertext ‖ tag.
            func seal(_ plaintext: Data, associatedData: Data, prefix: UInt8) -> [UInt8] {
                let working = takeWorkingPair()
                let nonceCount = AESGCM.nonceByteCount
                var output = [UInt8](repeating: 0, count: 1 + nonceCount + plaintext.count + AESGCM.tagByteCount)
                output[0] = prefix
                output.withUnsafeMutableBufferPointer { buffer in
                    let nonce = buffer.baseAddress! + 1
                    syntheticNonce(plaintext, associatedData: associatedData, with: working.mac, into: nonce)
                    encrypt(
                        plaintext, associatedData: associatedData, nonce: nonce, with: working.cipher,
                        into: nonce + nonceCount)
                }
                putBack(working)
                return output
            }

            /// A spare working pair, or fresh copies of the templates.
            private func takeWorkingPair() -> (mac: OpaquePointer, cipher: OpaquePointer) {
                if let pair = spareLock.withLock({ spare.popLast() }) { return pair }
                guard let context = EVP_MAC_CTX_dup(mac) else {
                    preconditionFailure("OpenSSL HMAC copy failed: \(OpenSSLBackend.takeErrorMessage())")
                }
                guard let copy = EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_copy(copy, cipher) == 1 else {
                    preconditionFailure("OpenSSL cipher context failed: \(OpenSSLBackend.takeErrorMessage())")
                }
                return (context, copy)
            }

            private func putBack(_ pair: (mac: OpaquePointer, cipher: OpaquePointer)) {
                let kept = spareLock.withLock {
                    guard spare.count < Self.maxSpare else { return false }
                    spare.append(pair)
                    return true
                }
                if !kept {
                    EVP_MAC_CTX_free(pair.mac)
                    EVP_CIPHER_CTX_free(pair.cipher)
                }
            }

            /// The first 12 bytes of HMAC(nonce key, associated data ‖ 0 ‖ plaintext) into `out`,
            /// through `context`, a working copy of the keyed template, started over here.
            private func syntheticNonce(
                _ plaintext: Data, associatedData: Data, with context: OpaquePointer,
                into out: UnsafeMutablePointer<UInt8>
            ) {
                var zero: UInt8 = 0
                var digest = [UInt8](repeating: 0, count: 32)
                var length = 0
                let done =
                    EVP_MAC_init(context, nil, 0, nil) == 1
                    && associatedData.withNonNullBytes { EVP_MAC_update(context, $0, $1) } == 1
                    && EVP_MAC_update(context, &zero, 1) == 1
                    && plaintext.withNonNullBytes { EVP_MAC_update(context, $0, $1) } == 1
                    && EVP_MAC_final(context, &digest, &length, digest.count) == 1
                precondition(done && length == 32, "OpenSSL HMAC-SHA256 failed: \(OpenSSLBackend.takeErrorMessage())")
                out.update(from: digest, count: AESGCM.nonceByteCount)
            }

            /// Ciphertext ‖ tag of `plaintext` into `out` (its length plus 16 bytes), through
            /// `context`, a working copy of the keyed template: a new IV starts it over.
            private func encrypt(
                _ plaintext: Data, associatedData: Data, nonce: UnsafePointer<UInt8>, with context: OpaquePointer,
                into out: UnsafeMutablePointer<UInt8>
            ) {
                var written: Int32 = 0
                var ignored: Int32 = 0
                var done = EVP_EncryptInit_ex(context, nil, nil, nil, nonce) == 1
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
