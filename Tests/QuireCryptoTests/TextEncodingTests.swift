import Foundation
import Testing

@testable import QuireCrypto

/// Hex and base64url text, written byte by byte for speed, give exactly what the slow forms
/// they replaced gave (`String(format: "%02x")` and base64 with three replacements).
struct TextEncodingTests {
    /// Every length up to 70 bytes (every base64 remainder), with random and extreme bytes.
    static let samples: [Data] = (0...70).map { length in
        Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length &* 11) })
            + Data([0, 255, 62, 63])
            .prefix(length == 0 ? 0 : 4)
    }

    @Test func hexIsTwoLowercaseDigitsAByte() {
        for data in Self.samples + [SecureRandom.bytes(32)] {
            #expect(HexText.string(data) == data.map { String(format: "%02x", $0) }.joined())
        }
        #expect(
            SHA256Digest.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func base64URLMatchesTheStandardFormWithItsReplacements() {
        // Every length to 70 (each remainder of three many times), and a slice of a larger buffer.
        let lengths = (0...70).map { SecureRandom.bytes($0) } + [SecureRandom.bytes(100).dropFirst(33)]
        for data in Self.samples + lengths {
            let reference = data.base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(data.base64URLEncodedString() == reference)
            #expect(Data(base64URLEncoded: reference) == data)
            let padded = reference + String(repeating: "=", count: (4 - reference.count % 4) % 4)
            #expect(Data(base64URLEncoded: padded) == data)
        }
    }

    @Test func base64URLRefusesWhatIsNotBase64URL() {
        #expect(Data(base64URLEncoded: "a") == nil, "one character left over")
        #expect(Data(base64URLEncoded: "ab=c") == nil, "padding inside")
        #expect(Data(base64URLEncoded: "ab+c") != nil, "the standard alphabet's + is still read")
        #expect(Data(base64URLEncoded: "a*bc") == nil)
        #expect(Data(base64URLEncoded: "ä123") == nil)
        #expect(Data(base64URLEncoded: "") == Data())
    }
}
