#if !canImport(CryptoKit)
    import COpenSSL
    import Foundation

    extension OpenSSLBackend {
        static func x25519PublicKey(privateKey: Data) throws -> Data {
            let key = try X25519Key(privateKey: privateKey)
            var output = [UInt8](repeating: 0, count: X25519.keyByteCount)
            var length = output.count
            try check(EVP_PKEY_get_raw_public_key(key.pointer, &output, &length), "EVP_PKEY_get_raw_public_key")
            return Data(output.prefix(length))
        }

        static func x25519SharedSecret(privateKey: Data, publicKey: Data) throws -> Data {
            let mine = try X25519Key(privateKey: privateKey)
            let peer = try X25519Key(publicKey: publicKey)
            guard let context = EVP_PKEY_CTX_new(mine.pointer, nil) else {
                throw CryptoError.libraryFailure.with(detail: "EVP_PKEY_CTX_new failed")
            }
            defer { EVP_PKEY_CTX_free(context) }
            try check(EVP_PKEY_derive_init(context), "EVP_PKEY_derive_init")
            try check(EVP_PKEY_derive_set_peer(context, peer.pointer), "EVP_PKEY_derive_set_peer")
            var output = [UInt8](repeating: 0, count: X25519.keyByteCount)
            var length = output.count
            // OpenSSL refuses an all-zero result (a public key of small order) here.
            guard EVP_PKEY_derive(context, &output, &length) == 1, length == X25519.keyByteCount else {
                ERR_clear_error()
                throw CryptoError.invalidParameter.with(detail: "the public key gives no shared secret (small order)")
            }
            return Data(output)
        }
    }

    /// One raw X25519 `EVP_PKEY`, freed when the value goes away.
    private final class X25519Key {
        let pointer: OpaquePointer

        init(privateKey: Data) throws {
            pointer = try Self.make(privateKey, EVP_PKEY_new_raw_private_key)
        }

        init(publicKey: Data) throws {
            pointer = try Self.make(publicKey, EVP_PKEY_new_raw_public_key)
        }

        private static func make(
            _ raw: Data,
            _ body: (Int32, OpaquePointer?, UnsafePointer<UInt8>?, Int) -> OpaquePointer?
        ) throws -> OpaquePointer {
            let made = raw.withNonNullBytes { bytes, count in body(EVP_PKEY_X25519, nil, bytes, count) }
            guard let made else {
                throw CryptoError.libraryFailure.with(
                    detail: "EVP_PKEY_new_raw_*_key failed: \(OpenSSLBackend.takeErrorMessage())")
            }
            return made
        }

        deinit { EVP_PKEY_free(pointer) }
    }
#endif
