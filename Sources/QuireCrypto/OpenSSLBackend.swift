#if !canImport(CryptoKit)
    import COpenSSL
    import Foundation

    /// `CryptoBackend` on OpenSSL libcrypto 3 (Linux).
    ///
    /// Every context is created and freed within one call, so the functions are safe to call from
    /// any thread at once (OpenSSL 3 is thread-safe for independent contexts).
    enum OpenSSLBackend: CryptoBackend {
        // MARK: - AES-256-GCM

        static func sealAESGCM(
            _ plaintext: Data, key: SymmetricKey256, nonce: Data, associatedData: Data
        ) throws -> Data {
            let context = try CipherContext(encrypting: true, key: key, nonce: nonce)
            try context.authenticate(associatedData)
            var output = [UInt8](repeating: 0, count: plaintext.count + AESGCM.tagByteCount)
            try output.withUnsafeMutableBufferPointer { buffer in
                let out = buffer.baseAddress!  // never empty: it holds at least the tag
                let written = try context.update(plaintext, into: out)
                guard context.finish(into: out + written) else {
                    throw CryptoError.libraryFailure.with(detail: "EVP_CipherFinal_ex failed: \(takeErrorMessage())")
                }
                try context.tag(into: out + plaintext.count)
            }
            return Data(output)
        }

        static func openAESGCM(
            ciphertext: Data, tag: Data, key: SymmetricKey256, nonce: Data, associatedData: Data
        ) throws -> Data {
            let context = try CipherContext(encrypting: false, key: key, nonce: nonce)
            try context.authenticate(associatedData)
            // One spare byte so the buffer has an address even for an empty plaintext.
            var output = [UInt8](repeating: 0, count: ciphertext.count + 1)
            let verified = try output.withUnsafeMutableBufferPointer { buffer in
                let out = buffer.baseAddress!
                let written = try context.update(ciphertext, into: out)
                try context.expectTag(tag)
                return context.finish(into: out + written)
            }
            guard verified else {
                // Unverified plaintext must not outlive this call.
                output.withUnsafeMutableBufferPointer { OPENSSL_cleanse($0.baseAddress, $0.count) }
                ERR_clear_error()
                throw CryptoError.authenticationFailed
            }
            return Data(output.prefix(ciphertext.count))
        }

        // MARK: - PBKDF2, HMAC, comparison

        static func pbkdf2SHA256(password: Data, salt: Data, iterations: Int, keyLength: Int) throws -> Data {
            var output = [UInt8](repeating: 0, count: keyLength)
            let status = password.withNonNullBytes { passwordBytes, passwordCount in
                salt.withNonNullBytes { saltBytes, saltCount in
                    UnsafeRawPointer(passwordBytes).withMemoryRebound(to: CChar.self, capacity: max(passwordCount, 1)) {
                        PKCS5_PBKDF2_HMAC(
                            $0, Int32(passwordCount), saltBytes, Int32(saltCount), Int32(iterations),
                            EVP_sha256(), Int32(keyLength), &output)
                    }
                }
            }
            try check(status, "PKCS5_PBKDF2_HMAC")
            return Data(output)
        }

        static func hmacSHA256(key: Data, data: Data) -> Data {
            var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length = 0
            let result = key.withNonNullBytes { keyBytes, keyCount in
                data.withNonNullBytes { dataBytes, dataCount in
                    EVP_Q_mac(
                        nil, "HMAC", nil, "SHA256", nil, keyBytes, keyCount, dataBytes, dataCount,
                        &output, output.count, &length)
                }
            }
            // HMAC with a built-in digest only fails when the library cannot allocate.
            precondition(result != nil && length == 32, "OpenSSL HMAC-SHA256 failed: \(takeErrorMessage())")
            return Data(output.prefix(length))
        }

        static func constantTimeEquals(_ a: Data, _ b: Data) -> Bool {
            a.withNonNullBytes { aBytes, count in
                b.withNonNullBytes { bBytes, _ in CRYPTO_memcmp(aBytes, bBytes, count) == 0 }
            }
        }

        // MARK: - Errors

        /// Throws `CryptoError.libraryFailure` naming `function` and OpenSSL's reason unless `status` is 1.
        static func check(_ status: Int32, _ function: String) throws {
            guard status == 1 else {
                throw CryptoError.libraryFailure.with(detail: "\(function) failed: \(takeErrorMessage())")
            }
        }

        /// The oldest error on this thread's OpenSSL error queue, and clears the queue.
        static func takeErrorMessage() -> String {
            let code = ERR_get_error()
            ERR_clear_error()
            guard code != 0 else { return "no OpenSSL error recorded" }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// One AES-256-GCM `EVP_CIPHER_CTX`, freed when the value goes away.
    ///
    /// Used only inside one `OpenSSLBackend` call, never shared between threads.
    private final class CipherContext {
        private let pointer: OpaquePointer
        private let encrypting: Int32

        /// A context for AES-256-GCM with a 12-byte nonce, keyed and ready for associated data.
        init(encrypting: Bool, key: SymmetricKey256, nonce: Data) throws {
            guard let pointer = EVP_CIPHER_CTX_new() else {
                throw CryptoError.libraryFailure.with(detail: "EVP_CIPHER_CTX_new failed")
            }
            self.pointer = pointer
            self.encrypting = encrypting ? 1 : 0
            try OpenSSLBackend.check(
                EVP_CipherInit_ex(pointer, EVP_aes_256_gcm(), nil, nil, nil, self.encrypting), "EVP_CipherInit_ex")
            try OpenSSLBackend.check(
                EVP_CIPHER_CTX_ctrl(pointer, EVP_CTRL_GCM_SET_IVLEN, Int32(nonce.count), nil), "EVP_CTRL_GCM_SET_IVLEN")
            try key.data.withNonNullBytes { keyBytes, _ in
                try nonce.withNonNullBytes { nonceBytes, _ in
                    try OpenSSLBackend.check(
                        EVP_CipherInit_ex(pointer, nil, nil, keyBytes, nonceBytes, self.encrypting), "EVP_CipherInit_ex"
                    )
                }
            }
        }

        deinit { EVP_CIPHER_CTX_free(pointer) }

        /// Feeds associated data (authenticated, not encrypted). Must come before `update`.
        func authenticate(_ associatedData: Data) throws {
            guard !associatedData.isEmpty else { return }
            var ignored: Int32 = 0
            try associatedData.withNonNullBytes { bytes, count in
                // A null output pointer is how EVP takes associated data.
                try OpenSSLBackend.check(
                    EVP_CipherUpdate(pointer, nil, &ignored, bytes, Int32(count)), "EVP_CipherUpdate (associated data)")
            }
        }

        /// Encrypts or decrypts `input` into `out`; returns the bytes written (GCM writes as many
        /// as it reads).
        func update(_ input: Data, into out: UnsafeMutablePointer<UInt8>) throws -> Int {
            guard !input.isEmpty else { return 0 }
            var written: Int32 = 0
            try input.withNonNullBytes { bytes, count in
                try OpenSSLBackend.check(
                    EVP_CipherUpdate(pointer, out, &written, bytes, Int32(count)), "EVP_CipherUpdate")
            }
            return Int(written)
        }

        /// Finishes the operation. When decrypting, this is where the tag is checked: false means
        /// it did not verify.
        func finish(into out: UnsafeMutablePointer<UInt8>) -> Bool {
            var written: Int32 = 0
            return EVP_CipherFinal_ex(pointer, out, &written) == 1
        }

        /// Writes the 16-byte tag after encrypting.
        func tag(into out: UnsafeMutablePointer<UInt8>) throws {
            try OpenSSLBackend.check(
                EVP_CIPHER_CTX_ctrl(pointer, EVP_CTRL_GCM_GET_TAG, Int32(AESGCM.tagByteCount), out),
                "EVP_CTRL_GCM_GET_TAG")
        }

        /// Sets the tag to check before decrypting finishes.
        func expectTag(_ tag: Data) throws {
            var bytes = [UInt8](tag)
            try OpenSSLBackend.check(
                EVP_CIPHER_CTX_ctrl(pointer, EVP_CTRL_GCM_SET_TAG, Int32(bytes.count), &bytes), "EVP_CTRL_GCM_SET_TAG")
        }
    }
#endif
