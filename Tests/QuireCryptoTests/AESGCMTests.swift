import Foundation
import QuireCrypto
import Testing

struct AESGCMTests {
    let key = SymmetricKey256.random()
    let plaintext = Data(#"{"title":"Groceries","body":"eggs\nmilk","conflictOf":null}"#.utf8)
    let associatedData = Data("account-1|note-7".utf8)

    @Test func sealedDataOpensToThePlaintext() throws {
        let sealed = try AESGCM.seal(plaintext, key: key, associatedData: associatedData)

        #expect(sealed.count == plaintext.count + AESGCM.overheadByteCount)
        #expect(try AESGCM.open(sealed, key: key, associatedData: associatedData) == plaintext)
    }

    @Test func emptyPlaintextRoundTrips() throws {
        let sealed = try AESGCM.seal(Data(), key: key, associatedData: Data())

        #expect(sealed.count == AESGCM.overheadByteCount)
        #expect(try AESGCM.open(sealed, key: key, associatedData: Data()) == Data())
    }

    @Test func sealingTheSamePlaintextTwiceGivesDifferentOutput() throws {
        let first = try AESGCM.seal(plaintext, key: key, associatedData: associatedData)
        let second = try AESGCM.seal(plaintext, key: key, associatedData: associatedData)

        #expect(first.prefix(AESGCM.nonceByteCount) != second.prefix(AESGCM.nonceByteCount))
        #expect(first != second)
    }

    @Test func ciphertextDoesNotContainThePlaintext() throws {
        let sealed = try AESGCM.seal(plaintext, key: key, associatedData: associatedData)

        #expect(sealed.range(of: Data("Groceries".utf8)) == nil)
    }

    /// One flipped bit in each region of nonce ‖ ciphertext ‖ tag.
    @Test(arguments: ["nonce", "ciphertext", "tag"])
    func aFlippedBitAnywhereFailsAuthentication(region: String) throws {
        var sealed = try AESGCM.seal(plaintext, key: key, associatedData: associatedData)
        let index: Int
        switch region {
        case "nonce": index = 3
        case "ciphertext": index = AESGCM.nonceByteCount + plaintext.count / 2
        default: index = sealed.count - 1
        }
        sealed[index] ^= 0x01

        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(sealed, key: key, associatedData: associatedData)
        }
    }

    @Test func everySingleByteChangeFailsAuthentication() throws {
        let sealed = try AESGCM.seal(Data("short note".utf8), key: key, associatedData: associatedData)
        for index in sealed.indices {
            var tampered = sealed
            tampered[index] &+= 1
            #expect(throws: CryptoError.authenticationFailed) {
                try AESGCM.open(tampered, key: key, associatedData: associatedData)
            }
        }
    }

    @Test func openWithAnotherKeyFailsAuthentication() throws {
        let sealed = try AESGCM.seal(plaintext, key: key, associatedData: associatedData)

        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(sealed, key: SymmetricKey256.random(), associatedData: associatedData)
        }
    }

    @Test func openWithOtherAssociatedDataFailsAuthentication() throws {
        let sealed = try AESGCM.seal(plaintext, key: key, associatedData: associatedData)

        // A payload moved to another note (or account) must not open there.
        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(sealed, key: key, associatedData: Data("account-1|note-8".utf8))
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(sealed, key: key, associatedData: Data())
        }
    }

    @Test func truncatedOrAppendedDataIsRejected() throws {
        let sealed = try AESGCM.seal(plaintext, key: key, associatedData: associatedData)

        // Shorter than nonce plus tag: cannot be sealed data at all.
        for length in [0, 1, AESGCM.nonceByteCount, AESGCM.overheadByteCount - 1] {
            #expect(throws: CryptoError.inputTooShort) {
                try AESGCM.open(sealed.prefix(length), key: key, associatedData: associatedData)
            }
        }
        // Long enough to parse, but cut or extended: the tag no longer matches.
        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(sealed.dropLast(), key: key, associatedData: associatedData)
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(sealed + Data([0]), key: key, associatedData: associatedData)
        }
    }

    @Test func openAcceptsASliceThatDoesNotStartAtIndexZero() throws {
        let sealed = try AESGCM.seal(plaintext, key: key, associatedData: associatedData)
        let framed = Data([0xAA, 0xBB]) + sealed + Data([0xCC])

        let slice = framed.dropFirst(2).dropLast()

        #expect(try AESGCM.open(slice, key: key, associatedData: associatedData) == plaintext)
    }

    @Test func randomGarbageNeverTrapsAndIsRejected() throws {
        for length in stride(from: 0, through: 80, by: 7) {
            let garbage = SecureRandom.bytes(length)
            #expect(throws: CryptoError.self) {
                try AESGCM.open(garbage, key: key, associatedData: associatedData)
            }
        }
    }

    @Test func errorsExplainThemselves() {
        #expect(CryptoError.authenticationFailed.description.contains("wrong key"))
        #expect(CryptoError.authenticationFailed != CryptoError.inputTooShort)
    }
}
