import Foundation
import QuireCrypto
import Testing

struct X25519Tests {
    // RFC 7748 §6.1.
    let alicePrivate = Data(hex: "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
    let alicePublic = Data(hex: "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
    let bobPrivate = Data(hex: "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
    let bobPublic = Data(hex: "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
    let shared = Data(hex: "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742")

    @Test func theRFCVectorsAgree() throws {
        let alice = try X25519.PrivateKey(rawRepresentation: alicePrivate)
        let bob = try X25519.PrivateKey(rawRepresentation: bobPrivate)
        #expect(try alice.publicKey() == alicePublic)
        #expect(try bob.publicKey() == bobPublic)
        #expect(try alice.sharedSecret(with: bobPublic) == shared)
        #expect(try bob.sharedSecret(with: alicePublic) == shared)
    }

    @Test func aPublicKeyOfSmallOrderIsRefused() throws {
        let alice = try X25519.PrivateKey(rawRepresentation: alicePrivate)
        // The identity point and the point of order 8 from RFC 7748's test lists: both give zeros.
        for bad in [Data(count: 32), Data([1] + [UInt8](repeating: 0, count: 31))] {
            #expect(throws: CryptoError.invalidParameter) { try alice.sharedSecret(with: bad) }
        }
        #expect(throws: CryptoError.invalidKeyLength) { try alice.sharedSecret(with: Data(count: 31)) }
        #expect(throws: CryptoError.invalidKeyLength) { try X25519.PrivateKey(rawRepresentation: Data(count: 33)) }
    }

    @Test func aPrivateKeyIsNeverDescribed() throws {
        let key = try X25519.PrivateKey(rawRepresentation: alicePrivate)
        #expect(!"\(key)".contains("77076d"))
        #expect(X25519.PrivateKey() != X25519.PrivateKey())
    }
}

struct PublicKeySealTests {
    let recipient = X25519.PrivateKey()
    let secret = Data("the trip key, 32 bytes long....!".utf8)
    let context = Data("quire-trip-share-v1|trip|7".utf8)

    @Test func onlyTheRecipientOpensItWithTheSameContext() throws {
        let sealed = try PublicKeySeal.seal(secret, to: recipient.publicKey(), associatedData: context)
        #expect(try PublicKeySeal.open(sealed, with: recipient, associatedData: context) == secret)
        #expect(try PublicKeySeal.seal(secret, to: recipient.publicKey(), associatedData: context) != sealed)
        #expect(throws: CryptoError.authenticationFailed) {
            try PublicKeySeal.open(sealed, with: X25519.PrivateKey(), associatedData: context)
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try PublicKeySeal.open(sealed, with: recipient, associatedData: Data("quire-trip-share-v1|other|7".utf8))
        }
    }

    @Test func everyChangedByteIsRefused() throws {
        let sealed = try PublicKeySeal.seal(secret, to: recipient.publicKey(), associatedData: context)
        for index in 1..<sealed.count {
            var changed = sealed
            changed[index] ^= 0x01
            #expect(throws: CryptoError.self) {
                try PublicKeySeal.open(changed, with: recipient, associatedData: context)
            }
        }
        var otherVersion = sealed
        otherVersion[0] = 2
        #expect(throws: CryptoError.invalidParameter) {
            try PublicKeySeal.open(otherVersion, with: recipient, associatedData: context)
        }
        #expect(throws: CryptoError.inputTooShort) {
            try PublicKeySeal.open(sealed.prefix(60), with: recipient, associatedData: context)
        }
    }
}
