import Foundation

/// Opens what ``ChunkedSealer`` sealed, chunk by chunk, checking each chunk's place and the end.
///
/// ``openFile(at:to:key:)`` streams a ciphertext file into a plaintext file and leaves nothing
/// when any chunk fails. Or make an opener from the ciphertext's first
/// ``ChunkedSealer/headerByteCount`` bytes and pass each sealed chunk to ``open(_:isFinal:)`` in
/// order (each is ``sealedChunkByteCount`` bytes but the last); a chunk that does not open throws
/// and returns nothing of itself.
public struct ChunkedOpener: Sendable {
    /// Plaintext bytes per chunk, from the header.
    public let chunkSize: Int
    private let header: Data
    private let chunkKey: SymmetricKey256
    private var nextIndex: UInt64 = 0
    private var finished = false

    /// An opener for the ciphertext that starts with `header`, under the file's `key`.
    /// - Throws: ``ChunkedCipherError/notChunkedCiphertext``,
    ///   ``ChunkedCipherError/unsupportedVersion(_:)`` or
    ///   ``ChunkedCipherError/invalidChunkSize(_:)`` for a header this code cannot read.
    public init(key: SymmetricKey256, header: Data) throws {
        let (chunkSize, salt) = try ChunkedCipherFormat.parse(header: header)
        self.chunkSize = chunkSize
        self.header = Data(header)
        self.chunkKey = try ChunkedCipherFormat.chunkKey(fileKey: key, salt: salt)
    }

    /// Bytes of each sealed chunk but the last: a chunk of plaintext and its tag.
    public var sealedChunkByteCount: Int { chunkSize + ChunkedSealer.chunkOverhead }

    /// Where sealed chunk `index` starts in the ciphertext, for reading one chunk of a stored
    /// file (a range request) without the ones before it.
    public func sealedOffset(ofChunk index: UInt64) -> UInt64 {
        UInt64(ChunkedSealer.headerByteCount) + index * UInt64(sealedChunkByteCount)
    }

    /// Opens the next chunk (`sealed` is ciphertext ‖ tag). `isFinal` says whether the
    /// ciphertext ends after it.
    /// - Throws: ``ChunkedCipherError/chunkAuthenticationFailed(index:)`` for a chunk that is not
    ///   the one sealed here; ``ChunkedCipherError/truncated(afterChunk:)`` when the ciphertext
    ///   ends (`isFinal`) at a chunk sealed as not the last;
    ///   ``ChunkedCipherError/dataAfterFinalChunk(index:)`` when more follows a chunk sealed as
    ///   the last; ``ChunkedCipherError/misuse(_:)`` for a chunk after the final one or of a size
    ///   the format never makes.
    public mutating func open(_ sealed: Data, isFinal: Bool) throws -> Data {
        guard !finished else { throw ChunkedCipherError.misuse("a chunk after the final chunk") }
        let index = nextIndex
        if isFinal, sealed.count < ChunkedSealer.chunkOverhead {
            // Not even a tag: the file was cut inside this chunk.
            throw ChunkedCipherError.truncated(afterChunk: index == 0 ? nil : index - 1)
        }
        guard sealed.count <= sealedChunkByteCount, isFinal || sealed.count == sealedChunkByteCount else {
            throw ChunkedCipherError.misuse(
                "a sealed chunk before the final one is \(sealedChunkByteCount) bytes, and none is longer; "
                    + "this one is \(sealed.count)")
        }
        if let plaintext = try attempt(sealed, index: index, isFinal: isFinal) {
            nextIndex += 1
            finished = isFinal
            return plaintext
        }
        // Which kind of damage: the chunk opens with the other flag only when it is in its place
        // and the file's end moved (cut after it, or something added after it).
        if try attempt(sealed, index: index, isFinal: !isFinal) != nil {
            throw isFinal
                ? ChunkedCipherError.truncated(afterChunk: index)
                : ChunkedCipherError.dataAfterFinalChunk(index: index)
        }
        throw ChunkedCipherError.chunkAuthenticationFailed(index: index)
    }

    private func attempt(_ sealed: Data, index: UInt64, isFinal: Bool) throws -> Data? {
        do {
            return try PlatformCrypto.openAESGCM(
                ciphertext: sealed.dropLast(ChunkedSealer.chunkOverhead),
                tag: sealed.suffix(ChunkedSealer.chunkOverhead), key: chunkKey,
                nonce: ChunkedCipherFormat.nonce(index: index),
                associatedData: ChunkedCipherFormat.associatedData(header: header, index: index, isFinal: isFinal))
        } catch let error as CryptoError where error == .authenticationFailed {
            return nil
        }
    }

    /// Opens the ciphertext file at `input` into a new file at `output` (mode 0600), streaming:
    /// at most two sealed chunks are in memory at once. The output appears (fsynced, renamed
    /// into place) only after every chunk opened and the end checked; on any failure nothing is
    /// left at `output` and no unverified byte was written anywhere but the removed temporary
    /// file. Returns the plaintext size.
    /// - Throws: as ``open(_:isFinal:)``; ``ChunkedCipherError/notChunkedCiphertext`` for a file
    ///   shorter than a header; ``ChunkedCipherError/truncated(afterChunk:)`` with nil for one
    ///   that ends after its header; ``ChunkedCipherError/file(path:reason:)`` for I/O.
    @discardableResult
    public static func openFile(at input: URL, to output: URL, key: SymmetricKey256) throws -> Int {
        let source = try ChunkedFileIO.Input(input.path)
        let header = try source.read(upTo: ChunkedSealer.headerByteCount)
        guard header.count == ChunkedSealer.headerByteCount else { throw ChunkedCipherError.notChunkedCiphertext }
        var opener = try ChunkedOpener(key: key, header: header)
        let step = opener.sealedChunkByteCount
        var current = try source.read(upTo: step)
        guard !current.isEmpty else { throw ChunkedCipherError.truncated(afterChunk: nil) }
        let sink = try ChunkedFileIO.Output(output.path)
        var plaintextBytes = 0
        while true {
            let next = current.count == step ? try source.read(upTo: step) : Data()
            let isFinal = next.isEmpty
            let plaintext = try opener.open(current, isFinal: isFinal)
            try sink.write(plaintext)
            plaintextBytes += plaintext.count
            if isFinal { break }
            current = next
        }
        try sink.commit()
        return plaintextBytes
    }
}
