import Foundation

/// Seals a file (a photo) chunk by chunk with AES-256-GCM under a key of its own, so it can be
/// encrypted, uploaded, downloaded and decrypted in bounded memory, and any change to the chunks
/// (a byte, their order, their number, the end) is detected when it is opened
/// (``ChunkedOpener``). The layout is in `ChunkedCipherFormat.swift` and docs/security.md.
///
/// Two ways in: ``sealFile(at:to:key:chunkSize:)`` streams a file into a ciphertext file, one
/// chunk in memory at a time; or make a sealer, write its ``header``, then pass each chunk of
/// plaintext to ``seal(_:isFinal:)`` in order, the last one with `isFinal`.
public struct ChunkedSealer: Sendable {
    /// 64 KiB of plaintext per chunk: 16 bytes of tag each, 0.02 % more than the plaintext.
    public static let defaultChunkSize = 64 * 1024
    /// The chunk sizes the format allows (bytes of plaintext per chunk).
    public static let chunkSizes = 16...(16 * 1024 * 1024)
    /// Bytes of the header before the first chunk.
    public static let headerByteCount = ChunkedCipherFormat.headerByteCount
    /// Bytes each chunk adds to its plaintext (the GCM tag).
    public static let chunkOverhead = AESGCM.tagByteCount

    /// The bytes that start the ciphertext; they go before the first chunk.
    public let header: Data
    /// Plaintext bytes per chunk (all but the last hold exactly this many).
    public let chunkSize: Int
    private let chunkKey: SymmetricKey256
    private var nextIndex: UInt64 = 0
    private var finished = false

    /// A sealer under `key` (the file's own key: never reuse one for two files, though a fresh
    /// salt in each header keeps even a reused key's chunk keys apart).
    /// - Throws: ``ChunkedCipherError/invalidChunkSize(_:)`` outside ``chunkSizes``.
    public init(key: SymmetricKey256, chunkSize: Int = ChunkedSealer.defaultChunkSize) throws {
        guard Self.chunkSizes.contains(chunkSize) else { throw ChunkedCipherError.invalidChunkSize(chunkSize) }
        let salt = SecureRandom.bytes(ChunkedCipherFormat.saltByteCount)
        self.chunkSize = chunkSize
        self.header = ChunkedCipherFormat.header(chunkSize: chunkSize, salt: salt)
        self.chunkKey = try ChunkedCipherFormat.chunkKey(fileKey: key, salt: salt)
    }

    /// Seals the next chunk: exactly ``chunkSize`` bytes, or, for the last one (`isFinal`), 1 to
    /// ``chunkSize`` (0 only when it is also the first: an empty file). Returns ciphertext ‖ tag.
    /// - Throws: ``ChunkedCipherError/misuse(_:)`` for a chunk of the wrong size or one after the
    ///   final chunk; `CryptoError` if the platform library fails.
    public mutating func seal(_ plaintext: Data, isFinal: Bool) throws -> Data {
        guard !finished else { throw ChunkedCipherError.misuse("a chunk after the final chunk") }
        if isFinal {
            guard plaintext.count <= chunkSize, !plaintext.isEmpty || nextIndex == 0 else {
                throw ChunkedCipherError.misuse(
                    "the final chunk holds 1 to \(chunkSize) bytes (0 only for an empty file), not \(plaintext.count)")
            }
        } else if plaintext.count != chunkSize {
            throw ChunkedCipherError.misuse(
                "a chunk before the final one holds \(chunkSize) bytes, not \(plaintext.count)")
        }
        let index = nextIndex
        let sealed = try PlatformCrypto.sealAESGCM(
            plaintext, key: chunkKey, nonce: ChunkedCipherFormat.nonce(index: index),
            associatedData: ChunkedCipherFormat.associatedData(header: header, index: index, isFinal: isFinal))
        nextIndex += 1
        finished = isFinal
        return sealed
    }

    /// The size of the ciphertext of `plaintextByteCount` bytes sealed in chunks of `chunkSize`:
    /// what a client declares as the upload's length before it seals anything.
    public static func sealedByteCount(plaintextByteCount: Int, chunkSize: Int = defaultChunkSize) -> Int {
        let chunks = max(1, (plaintextByteCount + chunkSize - 1) / chunkSize)
        return headerByteCount + plaintextByteCount + chunks * chunkOverhead
    }

    /// Seals the file at `input` into a new file at `output` (mode 0600), streaming: at most two
    /// chunks of plaintext are in memory at once, never the whole file. The output appears whole
    /// and durable (fsynced, then renamed into place) or not at all. Returns the plaintext and
    /// ciphertext sizes.
    /// - Throws: ``ChunkedCipherError/file(path:reason:)`` when a file cannot be read or written;
    ///   ``ChunkedCipherError/invalidChunkSize(_:)``.
    @discardableResult
    public static func sealFile(
        at input: URL, to output: URL, key: SymmetricKey256, chunkSize: Int = defaultChunkSize
    ) throws -> (plaintextBytes: Int, sealedBytes: Int) {
        var sealer = try ChunkedSealer(key: key, chunkSize: chunkSize)
        let source = try ChunkedFileIO.Input(input.path)
        let sink = try ChunkedFileIO.Output(output.path)
        try sink.write(sealer.header)
        var sealedBytes = sealer.header.count
        var plaintextBytes = 0
        // One chunk ahead: a chunk is final when nothing follows it.
        var current = try source.read(upTo: chunkSize)
        while true {
            let next = current.count == chunkSize ? try source.read(upTo: chunkSize) : Data()
            let isFinal = next.isEmpty
            let sealed = try sealer.seal(current, isFinal: isFinal)
            try sink.write(sealed)
            plaintextBytes += current.count
            sealedBytes += sealed.count
            if isFinal { break }
            current = next
        }
        try sink.commit()
        return (plaintextBytes, sealedBytes)
    }
}
