/// Why a chunked file (``ChunkedSealer``, ``ChunkedOpener``) could not be sealed or opened.
///
/// Opening tells the kinds of damage apart where the format can: a changed byte, a chunk moved
/// to another place or one missing before it all fail the chunk's own authentication (its index
/// is in its nonce and associated data); a file that ends before its final chunk is `truncated`;
/// bytes after the final chunk are `dataAfterFinalChunk`. Nothing of a chunk that does not
/// authenticate is ever returned, and ``ChunkedOpener/openFile(at:to:key:)`` leaves no output
/// file behind when any chunk fails.
public enum ChunkedCipherError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input does not start with the format's header (another file, or one cut inside it).
    case notChunkedCiphertext
    /// The header names a format version this code does not know.
    case unsupportedVersion(UInt8)
    /// A chunk size outside ``ChunkedSealer/chunkSizes``.
    case invalidChunkSize(Int)
    /// Chunk `index` does not authenticate: a changed byte, a wrong key, a chunk that is not the
    /// one sealed at this place (reordered, or an earlier one dropped), or a last chunk with bytes
    /// cut from it or added to it.
    case chunkAuthenticationFailed(index: UInt64)
    /// The file ends after chunk `afterChunk`, which was sealed as one more chunks follow: the
    /// end was cut off. `afterChunk` is nil when not even the first chunk is there.
    case truncated(afterChunk: UInt64?)
    /// Chunk `index` was sealed as the last one, yet more bytes follow it: something was appended.
    case dataAfterFinalChunk(index: UInt64)
    /// The API was used out of order: a chunk after the final one, a non-final chunk that is not
    /// a whole chunk, or more than a chunk at once.
    case misuse(String)
    /// A file could not be read or written.
    case file(path: String, reason: String)

    public var description: String {
        switch self {
        case .notChunkedCiphertext:
            "not a Quire chunked ciphertext (the header is missing or damaged)"
        case .unsupportedVersion(let version):
            "chunked ciphertext version \(version) is not supported by this version of Quire"
        case .invalidChunkSize(let size):
            "a chunk size of \(size) bytes is out of range (\(ChunkedSealer.chunkSizes))"
        case .chunkAuthenticationFailed(let index):
            "chunk \(index) does not authenticate: the ciphertext was changed, reordered, cut or added to, "
                + "or the key is wrong"
        case .truncated(let last?):
            "the ciphertext ends after chunk \(last), before its final chunk: it was cut short"
        case .truncated(nil):
            "the ciphertext ends before its first chunk: it was cut short"
        case .dataAfterFinalChunk(let index):
            "data follows the final chunk (\(index)): something was appended to the ciphertext"
        case .misuse(let detail):
            "chunked cipher used out of order: \(detail)"
        case .file(let path, let reason):
            "cannot use \(path): \(reason)"
        }
    }
}
