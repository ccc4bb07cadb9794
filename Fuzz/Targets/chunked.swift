import Foundation
import QuireCrypto

/// Fuzz target `chunked`: a photo's ciphertext as downloaded (docs/security.md, "Photos"): a
/// header and sealed chunks. `ChunkedOpener` is made from the first 44 bytes and given the rest
/// chunk by chunk (the last one final), as `openFile` does. Never a crash; a header that parses
/// names a chunk size the sealer makes; a file that opens in full gives no more plaintext than
/// it had ciphertext. The seeds include real sealed files (Fuzz/make-seeds.py writes them with
/// an implementation of the format of its own), so mutations start from chunks that authenticate.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChunked(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Data(FuzzInput.bytes(data, size))
    let key = SymmetricKey256(data: Data(repeating: 5, count: 32))!
    let headerSize = ChunkedSealer.headerByteCount
    guard bytes.count >= headerSize,
        var opener = try? ChunkedOpener(key: key, header: bytes.prefix(headerSize))
    else { return 0 }
    FuzzInput.require(ChunkedSealer.chunkSizes.contains(opener.chunkSize), "a header with a chunk size never made")
    var offset = headerSize
    var plaintext = Data()
    repeat {
        let end = min(offset + opener.sealedChunkByteCount, bytes.count)
        let isFinal = end == bytes.count
        guard let opened = try? opener.open(bytes[offset..<end], isFinal: isFinal) else { return 0 }
        plaintext.append(opened)
        offset = end
    } while offset < bytes.count
    FuzzInput.require(plaintext.count <= bytes.count, "more plaintext than ciphertext")
    return 0
}
