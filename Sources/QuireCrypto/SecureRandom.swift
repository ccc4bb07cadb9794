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
    /// Written straight into the string from the alphabet, three bytes to four digits: cursors
    /// and tokens are encoded on every request (two cursors on every write's answer).
    public func base64URLEncodedString() -> String {
        let full = count / 3
        let rest = count % 3
        let length = full * 4 + (rest == 0 ? 0 : rest + 1)
        return withUnsafeBytes { bytes in
            String(unsafeUninitializedCapacity: length) { text in
                let alphabet = base64URLAlphabet
                var out = 0
                var index = 0
                func digit(_ value: UInt32) -> UInt8 { alphabet[Int(value & 0x3F)] }
                for _ in 0..<full {
                    let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                    text[out] = digit(group >> 18)
                    text[out + 1] = digit(group >> 12)
                    text[out + 2] = digit(group >> 6)
                    text[out + 3] = digit(group)
                    index += 3
                    out += 4
                }
                if rest > 0 {
                    let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
                    text[out] = digit(group >> 18)
                    text[out + 1] = digit(group >> 12)
                    if rest == 2 { text[out + 2] = digit(group >> 6) }
                    out += rest + 1
                }
                return out
            }
        }
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

/// Base64url's 64 digits (RFC 4648 §5), by value.
private let base64URLAlphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
