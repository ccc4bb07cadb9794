import Foundation
import QuireCrypto
import Testing

/// SHA-256 fed in pieces (a photo is hashed as it is read): the same digest as hashing it whole,
/// for the FIPS 180-2 vector and for pieces that split it anywhere.
struct SHA256HasherTests {
    @Test func piecesGiveTheDigestOfTheWhole() throws {
        let hasher = SHA256Hasher()
        for piece in ["a", "b", "c"] { hasher.update(Data(piece.utf8)) }
        #expect(
            hasher.finish().map { String(format: "%02x", $0) }.joined()
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")

        let bytes = SecureRandom.bytes(3_000_001)
        let split = SHA256Hasher()
        var start = 0
        for size in [0, 1, 65_535, 1_048_576, 2_000_000] where start < bytes.count {
            let end = min(bytes.count, start + size)
            split.update(bytes.subdata(in: start..<end))
            start = end
        }
        split.update(bytes.subdata(in: start..<bytes.count))
        #expect(split.finish() == SHA256Digest.hash(bytes))
    }

    @Test func aFilesDigestIsItsBytesDigest() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let bytes = SecureRandom.bytes(2_500_000)
        try bytes.write(to: file)

        #expect(try SHA256Hasher.hexDigest(ofFile: file) == SHA256Digest.hex(bytes))
        #expect(throws: ChunkedCipherError.self) {
            try SHA256Hasher.hexDigest(ofFile: file.appendingPathExtension("missing"))
        }
    }
}
