import Foundation

#if canImport(Security)
    import Security
#else
    import COpenSSL
#endif

/// Cryptographically secure random bytes: `SecRandomCopyBytes` on Apple, `RAND_bytes` on Linux.
public enum SecureRandom {
    /// `count` random bytes. Traps if the system generator fails: continuing with weak keys or
    /// tokens would be worse than stopping.
    public static func bytes(_ count: Int) -> Data {
        var buffer = [UInt8](repeating: 0, count: count)
        #if canImport(Security)
            let status = SecRandomCopyBytes(kSecRandomDefault, count, &buffer)
            precondition(status == errSecSuccess, "SecRandomCopyBytes failed")
        #else
            precondition(RAND_bytes(&buffer, Int32(count)) == 1, "RAND_bytes failed")
        #endif
        return Data(buffer)
    }

    /// A random token of `byteCount` bytes, as unpadded base64url text.
    public static func token(byteCount: Int = 32) -> String {
        bytes(byteCount).base64URLEncodedString()
    }
}

extension Data {
    /// Base64url without padding (RFC 4648 §5): safe in URLs, headers and file names.
    public func base64URLEncodedString() -> String {
        base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes base64url, with or without padding. Nil for anything else.
    public init?(base64URLEncoded text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") || text.hasSuffix("=") else { return nil }
        base64 = base64.replacingOccurrences(of: "=", with: "")
        let remainder = base64.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { base64 += String(repeating: "=", count: 4 - remainder) }
        self.init(base64Encoded: base64)
    }
}
