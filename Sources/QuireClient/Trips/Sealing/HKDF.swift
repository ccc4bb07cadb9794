import Foundation
import QuireCrypto

/// HKDF-SHA256 (RFC 5869): extract a pseudorandom key from input keying material, then expand it
/// into as many bytes as asked for, bound to `info`. Pure; built on ``HMAC``.
package enum HKDF {
    /// `length` bytes (at most 255 × 32) derived from `key` with `salt` and `info`.
    package static func sha256(key: Data, salt: Data, info: Data, length: Int) -> Data {
        precondition((0...255 * 32).contains(length), "HKDF-SHA256 gives at most 8160 bytes")
        let pseudorandomKey = HMAC.sha256(key: salt.isEmpty ? Data(count: 32) : salt, data: key)
        var output = Data()
        var block = Data()
        var counter: UInt8 = 1
        while output.count < length {
            block = HMAC.sha256(key: pseudorandomKey, data: block + info + [counter])
            output += block
            counter &+= 1
        }
        return output.prefix(length)
    }
}
