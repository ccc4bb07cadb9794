import Foundation

#if canImport(CryptoKit)
    import CryptoKit
#else
    import COpenSSL
#endif

/// SHA-256 fed in pieces, for files too large to hold at once (a photo is hashed as it is read,
/// one chunk in memory at a time): CryptoKit's `SHA256` on Apple, an OpenSSL `EVP_MD_CTX` on Linux.
///
/// Not thread-safe: one hasher, one caller.
public final class SHA256Hasher {
    #if canImport(CryptoKit)
        private var hasher = SHA256()
    #else
        private let context: OpaquePointer
    #endif

    public init() {
        #if !canImport(CryptoKit)
            // Allocation and init with a built-in digest fail only when memory runs out.
            context = EVP_MD_CTX_new()!
            precondition(EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1, "OpenSSL SHA-256 init failed")
        #endif
    }

    deinit {
        #if !canImport(CryptoKit)
            EVP_MD_CTX_free(context)
        #endif
    }

    /// Adds `data` to what is hashed.
    public func update(_ data: Data) {
        #if canImport(CryptoKit)
            hasher.update(data: data)
        #else
            let ok = data.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
            precondition(ok == 1, "OpenSSL SHA-256 update failed")
        #endif
    }

    /// The 32-byte digest of everything added; the hasher is spent after it.
    public func finish() -> Data {
        #if canImport(CryptoKit)
            return Data(hasher.finalize())
        #else
            var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            precondition(EVP_DigestFinal_ex(context, &digest, &length) == 1, "OpenSSL SHA-256 final failed")
            return Data(digest.prefix(Int(length)))
        #endif
    }

    /// The lowercase hex SHA-256 of the file at `url`, read 1 MiB at a time.
    /// - Throws: ``ChunkedCipherError/file(path:reason:)`` when the file cannot be read.
    public static func hexDigest(ofFile url: URL) throws -> String {
        let input = try ChunkedFileIO.Input(url.path)
        let hasher = SHA256Hasher()
        while true {
            let piece = try input.read(upTo: 1024 * 1024)
            if piece.isEmpty { break }
            hasher.update(piece)
        }
        return HexText.string(hasher.finish())
    }
}
