import Foundation
import QuireCrypto
import Testing

struct KeyDerivationTests {
    @Test func authKeyAndMasterKeyAreTheTwoHalvesOfPBKDF2Output() throws {
        // RFC 7914 section 11's first PBKDF2-HMAC-SHA256 vector ("passwd", "salt", c=1, 64 bytes).
        let keys = try KeyDerivation.deriveKeys(password: "passwd", salt: Data("salt".utf8), iterations: 1)

        #expect(keys.authKey.data.hex == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc")
        #expect(keys.masterKey.data.hex == "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
    }

    @Test func defaultIterationsAre600000AndDeriveTheSameAsPBKDF2() throws {
        let salt = Data(hex: "000102030405060708090a0b0c0d0e0f")

        let keys = try KeyDerivation.deriveKeys(password: "correct horse", salt: salt)
        let expected = try PBKDF2.sha256(
            password: Data("correct horse".utf8), salt: salt, iterations: 600_000, keyLength: 64)

        #expect(KeyDerivation.defaultIterations == 600_000)
        #expect(keys.authKey.data + keys.masterKey.data == expected)
    }

    @Test func theSamePasswordAndSaltAlwaysGiveTheSameKeys() throws {
        let salt = KeyDerivation.randomSalt()

        let first = try KeyDerivation.deriveKeys(password: "hunter2", salt: salt, iterations: 10)
        let second = try KeyDerivation.deriveKeys(password: "hunter2", salt: salt, iterations: 10)

        #expect(first == second)
        #expect(first.authKey != first.masterKey)
    }

    @Test func anotherSaltOrPasswordGivesOtherKeys() throws {
        let salt = KeyDerivation.randomSalt()
        let keys = try KeyDerivation.deriveKeys(password: "hunter2", salt: salt, iterations: 10)

        let otherSalt = try KeyDerivation.deriveKeys(
            password: "hunter2", salt: KeyDerivation.randomSalt(), iterations: 10)
        let otherPassword = try KeyDerivation.deriveKeys(password: "hunter3", salt: salt, iterations: 10)

        #expect(keys.masterKey != otherSalt.masterKey)
        #expect(keys.masterKey != otherPassword.masterKey)
    }

    @Test func composedAndDecomposedAccentsDeriveTheSameKeys() throws {
        let salt = Data("salt".utf8)
        let composed = "caf\u{E9}"  // é as one code point
        let decomposed = "cafe\u{301}"  // e + combining acute accent
        #expect(Data(composed.utf8) != Data(decomposed.utf8))

        let a = try KeyDerivation.deriveKeys(password: composed, salt: salt, iterations: 2)
        let b = try KeyDerivation.deriveKeys(password: decomposed, salt: salt, iterations: 2)

        #expect(a == b)
    }

    @Test func randomSaltsAreSixteenFreshBytes() {
        let first = KeyDerivation.randomSalt()

        #expect(first.count == 16)
        #expect(first != KeyDerivation.randomSalt())
    }

    // MARK: - Wrapping the notes key

    let account = Data("account:alice".utf8)

    @Test func wrappedNotesKeyUnwrapsWithTheMasterKey() throws {
        let masterKey = SymmetricKey256.random()
        let notesKey = SymmetricKey256.random()

        let wrapped = try KeyDerivation.wrap(notesKey: notesKey, with: masterKey, associatedData: account)

        #expect(wrapped.count == 32 + AESGCM.overheadByteCount)
        #expect(wrapped.range(of: notesKey.data) == nil)
        #expect(try KeyDerivation.unwrap(wrapped, with: masterKey, associatedData: account) == notesKey)
    }

    @Test func unwrapWithAWrongPasswordsMasterKeyFails() throws {
        let salt = KeyDerivation.randomSalt()
        let right = try KeyDerivation.deriveKeys(password: "right", salt: salt, iterations: 5)
        let wrong = try KeyDerivation.deriveKeys(password: "wrong", salt: salt, iterations: 5)
        let wrapped = try KeyDerivation.wrap(notesKey: .random(), with: right.masterKey, associatedData: account)

        #expect(throws: CryptoError.authenticationFailed) {
            try KeyDerivation.unwrap(wrapped, with: wrong.masterKey, associatedData: account)
        }
    }

    @Test func unwrapForAnotherAccountFails() throws {
        let masterKey = SymmetricKey256.random()
        let wrapped = try KeyDerivation.wrap(notesKey: .random(), with: masterKey, associatedData: account)

        #expect(throws: CryptoError.authenticationFailed) {
            try KeyDerivation.unwrap(wrapped, with: masterKey, associatedData: Data("account:mallory".utf8))
        }
    }

    @Test func unwrapOfSomethingThatIsNotAKeyFails() throws {
        let masterKey = SymmetricKey256.random()
        let notAKey = try AESGCM.seal(Data("sixteen bytes!!!".utf8), key: masterKey, associatedData: account)

        #expect(throws: CryptoError.invalidKeyLength) {
            try KeyDerivation.unwrap(notAKey, with: masterKey, associatedData: account)
        }
        #expect(throws: CryptoError.inputTooShort) {
            try KeyDerivation.unwrap(Data(count: 10), with: masterKey, associatedData: account)
        }
    }

    @Test func aPasswordChangeRewrapsTheSameNotesKey() throws {
        let notesKey = SymmetricKey256.random()
        let oldKeys = try KeyDerivation.deriveKeys(password: "old", salt: KeyDerivation.randomSalt(), iterations: 5)
        let newKeys = try KeyDerivation.deriveKeys(password: "new", salt: KeyDerivation.randomSalt(), iterations: 5)
        let oldWrapped = try KeyDerivation.wrap(notesKey: notesKey, with: oldKeys.masterKey, associatedData: account)

        let unwrapped = try KeyDerivation.unwrap(oldWrapped, with: oldKeys.masterKey, associatedData: account)
        let newWrapped = try KeyDerivation.wrap(notesKey: unwrapped, with: newKeys.masterKey, associatedData: account)

        #expect(try KeyDerivation.unwrap(newWrapped, with: newKeys.masterKey, associatedData: account) == notesKey)
    }
}
