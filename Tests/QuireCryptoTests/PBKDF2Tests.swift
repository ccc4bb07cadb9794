import Foundation
import QuireCrypto
import Testing

/// PBKDF2-HMAC-SHA256 against published vectors: RFC 7914 section 11, and the widely published
/// "password"/"salt" vectors (as in RFC 6070, with SHA-256).
struct PBKDF2Tests {
    struct Vector: CustomTestStringConvertible, Sendable {
        let password: String
        let salt: String
        let iterations: Int
        let keyLength: Int
        let derived: String
        var testDescription: String { "\(password)/\(salt) c=\(iterations) dkLen=\(keyLength)" }
    }

    static let vectors: [Vector] = [
        Vector(
            password: "passwd", salt: "salt", iterations: 1, keyLength: 64,
            derived: """
                55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc
                49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783
                """),
        Vector(
            password: "Password", salt: "NaCl", iterations: 80_000, keyLength: 64,
            derived: """
                4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56
                a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d
                """),
        Vector(
            password: "password", salt: "salt", iterations: 1, keyLength: 32,
            derived: "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"),
        Vector(
            password: "password", salt: "salt", iterations: 2, keyLength: 32,
            derived: "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43"),
        Vector(
            password: "password", salt: "salt", iterations: 4096, keyLength: 32,
            derived: "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a"),
    ]

    @Test(arguments: vectors)
    func derivesThePublishedKey(_ vector: Vector) throws {
        let derived = try PBKDF2.sha256(
            password: Data(vector.password.utf8), salt: Data(vector.salt.utf8),
            iterations: vector.iterations, keyLength: vector.keyLength)

        #expect(derived.hex == Data(hex: vector.derived).hex)
    }

    @Test func shorterOutputIsAPrefixOfLongerOutput() throws {
        let long = try PBKDF2.sha256(password: Data("pw".utf8), salt: Data("s".utf8), iterations: 3, keyLength: 64)
        let short = try PBKDF2.sha256(password: Data("pw".utf8), salt: Data("s".utf8), iterations: 3, keyLength: 20)

        #expect(short == long.prefix(20))
    }

    @Test func emptyPasswordAndSaltStillDeriveAKey() throws {
        let derived = try PBKDF2.sha256(password: Data(), salt: Data(), iterations: 1, keyLength: 32)

        #expect(derived.count == 32)
        #expect(derived != Data(count: 32))
    }

    @Test(arguments: [(0, 32), (-1, 32), (1, 0), (1, -5), (Int(Int32.max) + 1, 32)])
    func outOfRangeParametersThrowInsteadOfTrapping(iterations: Int, keyLength: Int) {
        #expect(throws: CryptoError.invalidParameter) {
            try PBKDF2.sha256(
                password: Data("pw".utf8), salt: Data("s".utf8), iterations: iterations, keyLength: keyLength)
        }
    }
}
