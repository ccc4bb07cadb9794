import Foundation
import QuireCrypto
import Testing

/// The chunked file format of photos (ChunkedSealer, ChunkedOpener): files round-trip at every
/// size around a chunk boundary, and each kind of damage to the stored chunks is caught and
/// named, with nothing left at the output.
final class ChunkedCipherTests {
    let key = SymmetricKey256.random()
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("quire-chunked-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    private func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    private static func randomBytes(_ count: Int) -> Data { SecureRandom.bytes(count) }

    /// Seals `plaintext` (written to a file) into a ciphertext file, and returns its bytes.
    private func sealed(_ plaintext: Data, chunkSize: Int = ChunkedSealer.defaultChunkSize) throws -> Data {
        let input = file("plain-\(UUID().uuidString)")
        let output = file("sealed-\(UUID().uuidString)")
        try plaintext.write(to: input)
        let sizes = try ChunkedSealer.sealFile(at: input, to: output, key: key, chunkSize: chunkSize)
        let bytes = try Data(contentsOf: output)
        #expect(sizes.plaintextBytes == plaintext.count)
        #expect(sizes.sealedBytes == bytes.count)
        return bytes
    }

    /// Opens `ciphertext` (written to a file) and returns the plaintext, or throws the opener's
    /// error; checks that a failure leaves no output file and no temporary file.
    private func opened(_ ciphertext: Data, key: SymmetricKey256? = nil) throws -> Data {
        let input = file("stored-\(UUID().uuidString)")
        let output = file("opened-\(UUID().uuidString)")
        try ciphertext.write(to: input)
        do {
            try ChunkedOpener.openFile(at: input, to: output, key: key ?? self.key)
        } catch {
            #expect(!FileManager.default.fileExists(atPath: output.path))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".partial") }
            #expect(leftovers.isEmpty)
            throw error
        }
        return try Data(contentsOf: output)
    }

    // MARK: - Round trips

    @Test(arguments: [
        0, 1, ChunkedSealer.defaultChunkSize - 1, ChunkedSealer.defaultChunkSize,
        ChunkedSealer.defaultChunkSize + 1, 3 * ChunkedSealer.defaultChunkSize, 5 * 1024 * 1024 + 12_345,
    ])
    func aFileRoundTrips(size: Int) throws {
        let plaintext = Self.randomBytes(size)

        let ciphertext = try sealed(plaintext)

        #expect(ciphertext.count == ChunkedSealer.sealedByteCount(plaintextByteCount: size))
        #expect(try opened(ciphertext) == plaintext)
    }

    @Test func theCiphertextHoldsNoPlaintextAndDiffersEachTime() throws {
        let plaintext = Data(String(repeating: "a photo of the beach at Nazaré ", count: 5_000).utf8)

        let first = try sealed(plaintext)
        let second = try sealed(plaintext)

        #expect(first.range(of: Data("Nazar".utf8)) == nil)
        // A fresh salt per file: the same key and plaintext never give the same chunks.
        #expect(first.dropFirst(ChunkedSealer.headerByteCount) != second.dropFirst(ChunkedSealer.headerByteCount))
        #expect(try opened(first) == plaintext && opened(second) == plaintext)
    }

    @Test func chunksCanBeSealedAndOpenedOneAtATime() throws {
        var sealer = try ChunkedSealer(key: key, chunkSize: 16)
        let chunks = [Data(repeating: 1, count: 16), Data(repeating: 2, count: 16), Data(repeating: 3, count: 5)]
        let sealed = try chunks.enumerated().map { index, chunk in
            try sealer.seal(chunk, isFinal: index == chunks.count - 1)
        }
        var opener = try ChunkedOpener(key: key, header: sealer.header)

        let opened = try sealed.enumerated().map { index, chunk in
            try opener.open(chunk, isFinal: index == sealed.count - 1)
        }

        #expect(opened == chunks)
        #expect(opener.sealedOffset(ofChunk: 2) == UInt64(ChunkedSealer.headerByteCount + 2 * (16 + 16)))
        #expect(throws: ChunkedCipherError.self) { try sealer.seal(Data([1]), isFinal: true) }
    }

    @Test func aNonFinalChunkMustBeWhole() throws {
        var sealer = try ChunkedSealer(key: key, chunkSize: 16)

        #expect(throws: ChunkedCipherError.self) { try sealer.seal(Data(repeating: 0, count: 15), isFinal: false) }
        #expect(throws: ChunkedCipherError.invalidChunkSize(8)) { try ChunkedSealer(key: key, chunkSize: 8) }
    }

    // MARK: - Damage

    /// A ciphertext of four chunks of 1 KiB: three whole ones and a last one of `lastChunk` bytes.
    private func fourChunks(lastChunk: Int = 500) throws -> (ciphertext: Data, chunks: [Data]) {
        let ciphertext = try sealed(Self.randomBytes(3 * 1024 + lastChunk), chunkSize: 1024)
        let header = ChunkedSealer.headerByteCount
        let step = 1024 + ChunkedSealer.chunkOverhead
        let chunks = (0..<4).map { index in
            Data(ciphertext[(header + index * step)..<min(ciphertext.count, header + (index + 1) * step)])
        }
        return (ciphertext, chunks)
    }

    private func header(of ciphertext: Data) -> Data { Data(ciphertext.prefix(ChunkedSealer.headerByteCount)) }

    @Test func aChangedByteIsCaughtInItsChunk() throws {
        var (ciphertext, _) = try fourChunks()
        ciphertext[ChunkedSealer.headerByteCount + 1040 + 7] ^= 0x01

        #expect(throws: ChunkedCipherError.chunkAuthenticationFailed(index: 1)) { try opened(ciphertext) }
    }

    @Test func swappedChunksAreCaught() throws {
        let (ciphertext, chunks) = try fourChunks()
        let swapped = header(of: ciphertext) + chunks[1] + chunks[0] + chunks[2] + chunks[3]

        #expect(throws: ChunkedCipherError.chunkAuthenticationFailed(index: 0)) { try opened(swapped) }
    }

    @Test func aDroppedChunkIsCaught() throws {
        let (ciphertext, chunks) = try fourChunks()
        let dropped = header(of: ciphertext) + chunks[0] + chunks[2] + chunks[3]

        #expect(throws: ChunkedCipherError.chunkAuthenticationFailed(index: 1)) { try opened(dropped) }
    }

    @Test func aFileCutAtAChunkBoundaryIsTruncated() throws {
        let (ciphertext, chunks) = try fourChunks()

        #expect(throws: ChunkedCipherError.truncated(afterChunk: 1)) {
            try opened(header(of: ciphertext) + chunks[0] + chunks[1])
        }
        #expect(throws: ChunkedCipherError.truncated(afterChunk: nil)) { try opened(header(of: ciphertext)) }
    }

    @Test func aFileCutInsideAChunkIsCaught() throws {
        let (ciphertext, chunks) = try fourChunks()

        #expect(throws: ChunkedCipherError.truncated(afterChunk: 1)) {
            try opened(header(of: ciphertext) + chunks[0] + chunks[1] + chunks[2].prefix(10))
        }
        #expect(throws: ChunkedCipherError.chunkAuthenticationFailed(index: 2)) {
            try opened(header(of: ciphertext) + chunks[0] + chunks[1] + chunks[2].prefix(600))
        }
        #expect(throws: ChunkedCipherError.chunkAuthenticationFailed(index: 3)) {
            try opened(ciphertext.dropLast(1))
        }
    }

    @Test func aChunkAppendedAfterTheFinalOneIsCaught() throws {
        // A whole last chunk, then a copy of an earlier chunk: the final chunk is no longer last.
        let (whole, wholeChunks) = try fourChunks(lastChunk: 1024)
        #expect(throws: ChunkedCipherError.dataAfterFinalChunk(index: 3)) { try opened(whole + wholeChunks[1]) }

        // A short last chunk with bytes after it no longer authenticates.
        let (short, shortChunks) = try fourChunks()
        #expect(throws: ChunkedCipherError.chunkAuthenticationFailed(index: 3)) { try opened(short + shortChunks[1]) }
        #expect(throws: ChunkedCipherError.chunkAuthenticationFailed(index: 3)) { try opened(short + Data([0])) }
    }

    @Test func aChunkFromAnotherFileUnderTheSameKeyIsCaught() throws {
        let (first, firstChunks) = try fourChunks()
        let (_, otherChunks) = try fourChunks()
        let mixed = header(of: first) + firstChunks[0] + otherChunks[1] + firstChunks[2] + firstChunks[3]

        #expect(throws: ChunkedCipherError.chunkAuthenticationFailed(index: 1)) { try opened(mixed) }
    }

    @Test func aDamagedHeaderIsCaught() throws {
        let (ciphertext, _) = try fourChunks()
        var magic = ciphertext
        magic[0] ^= 0x20
        var version = ciphertext
        version[6] = 9
        var size = ciphertext
        size[10] ^= 0x08  // 1024 becomes 3072: a valid size, but not the sealed one
        var salt = ciphertext
        salt[20] ^= 0x01

        #expect(throws: ChunkedCipherError.notChunkedCiphertext) { try opened(magic) }
        #expect(throws: ChunkedCipherError.notChunkedCiphertext) { try opened(ciphertext.prefix(20)) }
        #expect(throws: ChunkedCipherError.unsupportedVersion(9)) { try opened(version) }
        #expect(throws: ChunkedCipherError.self) { try opened(size) }
        #expect(throws: ChunkedCipherError.chunkAuthenticationFailed(index: 0)) { try opened(salt) }
    }

    @Test func theWrongKeyOpensNothing() throws {
        let ciphertext = try sealed(Data("the whole photo".utf8))

        #expect(throws: ChunkedCipherError.chunkAuthenticationFailed(index: 0)) {
            try opened(ciphertext, key: SymmetricKey256.random())
        }
    }

    @Test func theErrorsSayWhatHappened() {
        #expect(ChunkedCipherError.truncated(afterChunk: 4).description.contains("cut short"))
        #expect(ChunkedCipherError.dataAfterFinalChunk(index: 2).description.contains("appended"))
        #expect(ChunkedCipherError.chunkAuthenticationFailed(index: 3).description.contains("reordered"))
    }
}
