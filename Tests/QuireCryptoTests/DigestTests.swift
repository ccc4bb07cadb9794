import Foundation
import QuireCrypto
import Testing

/// SHA-256, HMAC-SHA256 (RFC 4231) and constant-time comparison.
struct DigestTests {
    @Test func sha256OfAbcIsThePublishedDigest() {
        #expect(
            SHA256Digest.hex(Data("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func hmacMatchesRFC4231TestCase1() {
        let mac = HMAC.sha256(key: Data(repeating: 0x0b, count: 20), data: Data("Hi There".utf8))

        #expect(mac.hex == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test func hmacMatchesRFC4231TestCase2() {
        let mac = HMAC.sha256(key: Data("Jefe".utf8), data: Data("what do ya want for nothing?".utf8))

        #expect(mac.hex == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func hmacWithEmptyKeyAndMessageMatchesTheKnownValue() {
        #expect(
            HMAC.sha256(key: Data(), data: Data()).hex
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func hmacIsStableAndDependsOnTheKey() {
        let first = HMAC.sha256(key: Data("server secret".utf8), data: Data("alice".utf8))
        let again = HMAC.sha256(key: Data("server secret".utf8), data: Data("alice".utf8))
        let otherKey = HMAC.sha256(key: Data("other secret".utf8), data: Data("alice".utf8))

        #expect(first == again)
        #expect(first != otherKey)
    }

    @Test func constantTimeEqualsComparesBytesAndLengths() {
        let a = Data("same bytes".utf8)

        #expect(ConstantTime.equals(a, Data("same bytes".utf8)))
        #expect(ConstantTime.equals(Data(), Data()))
        #expect(!ConstantTime.equals(a, Data("same bytez".utf8)))
        #expect(!ConstantTime.equals(a, Data("Same bytes".utf8)))
        #expect(!ConstantTime.equals(a, a.dropLast()))
        #expect(!ConstantTime.equals(Data(), Data([0])))
    }

    @Test func constantTimeEqualsWorksOnSlices() {
        let framed = Data("xxtokenyy".utf8)

        #expect(ConstantTime.equals(framed.dropFirst(2).dropLast(2), Data("token".utf8)))
    }
}
