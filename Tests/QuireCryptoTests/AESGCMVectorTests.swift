import Foundation
import QuireCrypto
import Testing

/// AES-256-GCM against the published test cases 13–16 of McGrew & Viega,
/// "The Galois/Counter Mode of Operation (GCM)", appendix B (the NIST GCM specification).
struct AESGCMVectorTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        let name: String
        let key: String
        let nonce: String
        let plaintext: String
        let associatedData: String
        let ciphertext: String
        let tag: String
        var testDescription: String { name }
    }

    static let zeroKey = String(repeating: "00", count: 32)
    static let specKey = "feffe9928665731c6d6a8f9467308308 feffe9928665731c6d6a8f9467308308"
    static let specNonce = "cafebabefacedbaddecaf888"

    static let vectors: [Vector] = [
        Vector(
            name: "test case 13: zero key, empty plaintext", key: zeroKey, nonce: String(repeating: "00", count: 12),
            plaintext: "", associatedData: "", ciphertext: "", tag: "530f8afbc74536b9a963b4f1c4cb738b"),
        Vector(
            name: "test case 14: zero key, one zero block", key: zeroKey, nonce: String(repeating: "00", count: 12),
            plaintext: "00000000000000000000000000000000", associatedData: "",
            ciphertext: "cea7403d4d606b6e074ec5d3baf39d18", tag: "d0d1c8a799996bf0265b98b5d48ab919"),
        Vector(
            name: "test case 15: four blocks, no associated data", key: specKey, nonce: specNonce,
            plaintext: """
                d9313225f88406e5a55909c5aff5269a 86a7a9531534f7da2e4c303d8a318a72
                1c3c0c95956809532fcf0e2449a6b525 b16aedf5aa0de657ba637b391aafd255
                """,
            associatedData: "",
            ciphertext: """
                522dc1f099567d07f47f37a32a84427d 643a8cdcbfe5c0c97598a2bd2555d1aa
                8cb08e48590dbb3da7b08b1056828838 c5f61e6393ba7a0abcc9f662898015ad
                """,
            tag: "b094dac5d93471bdec1a502270e3cc6c"),
        Vector(
            name: "test case 16: 60 bytes with associated data", key: specKey, nonce: specNonce,
            plaintext: """
                d9313225f88406e5a55909c5aff5269a 86a7a9531534f7da2e4c303d8a318a72
                1c3c0c95956809532fcf0e2449a6b525 b16aedf5aa0de657ba637b39
                """,
            associatedData: "feedfacedeadbeeffeedfacedeadbeef abaddad2",
            ciphertext: """
                522dc1f099567d07f47f37a32a84427d 643a8cdcbfe5c0c97598a2bd2555d1aa
                8cb08e48590dbb3da7b08b1056828838 c5f61e6393ba7a0abcc9f662
                """,
            tag: "76fc6ece0f4e1768cddf8853bb2d551b"),
    ]

    @Test(arguments: vectors)
    func sealWithGivenNonceMatchesPublishedCiphertextAndTag(_ vector: Vector) throws {
        let key = try #require(SymmetricKey256(data: Data(hex: vector.key)))

        let sealed = try AESGCM.seal(
            Data(hex: vector.plaintext), key: key, nonce: Data(hex: vector.nonce),
            associatedData: Data(hex: vector.associatedData))

        #expect(sealed.hex == Data(hex: vector.nonce + vector.ciphertext + vector.tag).hex)
    }

    @Test(arguments: vectors)
    func openOfPublishedCombinedFormReturnsPlaintext(_ vector: Vector) throws {
        let key = try #require(SymmetricKey256(data: Data(hex: vector.key)))
        let combined = Data(hex: vector.nonce + vector.ciphertext + vector.tag)

        let opened = try AESGCM.open(combined, key: key, associatedData: Data(hex: vector.associatedData))

        #expect(opened.hex == Data(hex: vector.plaintext).hex)
    }

    @Test func sealRejectsANonceThatIsNot96Bits() throws {
        let key = SymmetricKey256.random()
        for length in [0, 8, 11, 13, 16] {
            #expect(throws: CryptoError.invalidParameter) {
                try AESGCM.seal(Data("x".utf8), key: key, nonce: Data(count: length), associatedData: Data())
            }
        }
    }
}
