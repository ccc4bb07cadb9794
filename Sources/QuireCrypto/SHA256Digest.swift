import Foundation

#if canImport(CryptoKit)
    import CryptoKit
#else
    import COpenSSL
#endif

/// SHA-256, from CryptoKit on Apple and OpenSSL libcrypto on Linux.
public enum SHA256Digest {
    /// The 32-byte SHA-256 digest of `data`.
    public static func hash(_ data: Data) -> Data {
        #if canImport(CryptoKit)
            return Data(SHA256.hash(data: data))
        #else
            var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            let ok = data.withUnsafeBytes { bytes in
                EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, EVP_sha256(), nil)
            }
            // EVP_Digest with a built-in digest only fails when the library cannot allocate.
            precondition(ok == 1, "OpenSSL SHA-256 failed")
            return Data(digest.prefix(Int(length)))
        #endif
    }

    /// The lowercase hex SHA-256 digest of `data`.
    public static func hex(_ data: Data) -> String {
        HexText.string(hash(data))
    }
}
