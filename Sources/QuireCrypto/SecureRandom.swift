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
    ///
    /// Byte by byte over base64's ASCII: cursors and tokens are encoded on every request, and
    /// three `replacingOccurrences` (each a Foundation string search) cost about ten times more.
    public func base64URLEncodedString() -> String {
        var text: [UInt8] = []
        text.reserveCapacity((count + 2) / 3 * 4)
        for byte in base64EncodedString().utf8 {
            switch byte {
            case UInt8(ascii: "+"): text.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): text.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: text.append(byte)
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Decodes base64url, with or without padding. Nil for anything else.
    /// Padding may only end the text (any number of `=` there, as before).
    public init?(base64URLEncoded text: String) {
        let bytes = Array(text.utf8)
        var base64: [UInt8] = []
        base64.reserveCapacity(bytes.count + 3)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "-"): base64.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): base64.append(UInt8(ascii: "/"))
            case UInt8(ascii: "="):
                guard bytes.last == UInt8(ascii: "=") else { return nil }
            default: base64.append(byte)
            }
        }
        let remainder = base64.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { base64 += repeatElement(UInt8(ascii: "="), count: 4 - remainder) }
        self.init(base64Encoded: Data(base64))
    }
}
