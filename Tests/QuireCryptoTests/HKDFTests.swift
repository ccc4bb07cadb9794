import Foundation
import QuireCrypto
import Testing

/// HKDF-SHA256 against RFC 5869's own test vectors.
struct HKDFTests {
    private static func hex(_ text: String) -> Data {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return Data(bytes)
    }

    @Test func rfc5869TestCase1() throws {
        let okm = try HKDF.sha256(
            inputKeyMaterial: Self.hex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b"),
            salt: Self.hex("000102030405060708090a0b0c"), info: Self.hex("f0f1f2f3f4f5f6f7f8f9"), length: 42)
        #expect(
            okm
                == Self.hex(
                    "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"))
    }

    @Test func rfc5869TestCase3WithNoSaltAndNoInfo() throws {
        let okm = try HKDF.sha256(
            inputKeyMaterial: Self.hex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b"), salt: Data(), info: Data(),
            length: 42)
        #expect(
            okm
                == Self.hex(
                    "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"))
    }

    @Test(arguments: [0, HKDF.maximumLength + 1]) func anOutOfRangeLengthIsRefused(length: Int) {
        #expect(throws: CryptoError.invalidParameter) {
            try HKDF.sha256(inputKeyMaterial: Data([1]), salt: Data(), info: Data(), length: length)
        }
    }
}
