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
            // SHA-256 writes exactly 32 bytes, straight into the answer.
            var digest = Data(count: 32)
            var length: UInt32 = 0
            let ok = digest.withUnsafeMutableBytes { out in
                data.withUnsafeBytes { bytes in
                    EVP_Digest(bytes.baseAddress, bytes.count, out.baseAddress, &length, EVP_sha256(), nil)
                }
            }
            // EVP_Digest with a built-in digest only fails when the library cannot allocate.
            precondition(ok == 1 && length == 32, "OpenSSL SHA-256 failed")
            return digest
        #endif
    }

    /// The lowercase hex SHA-256 digest of `data`.
    public static func hex(_ data: Data) -> String {
        HexText.string(hash(data))
    }
}
