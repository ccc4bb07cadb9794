import Foundation

/// The layout both ``ChunkedSealer`` and ``ChunkedOpener`` follow (docs/security.md, "Photos"):
///
///     header  = "QCHUNK" ‖ version 0x01 ‖ 0x00 ‖ chunk size (UInt32, big-endian) ‖ salt (32 bytes)
///     chunk i = AES-256-GCM(chunk key, nonce_i, plaintext_i, ad_i) = ciphertext_i ‖ tag_i (16 bytes)
///
///     chunk key = HKDF-SHA256(the file's key, salt, "quire chunked file v1 chunk key"), 32 bytes
///     nonce_i   = 0x00000000 ‖ i (UInt64, big-endian)
///     ad_i      = header ‖ i (UInt64, big-endian) ‖ final (0x01 for the last chunk, else 0x00)
///
/// Every chunk holds `chunk size` bytes of plaintext except the last, which holds 1 to `chunk
/// size` (0 only when the whole file is empty: an empty file is one empty final chunk). The
/// index in the nonce and the associated data pins each chunk to its place, the final flag
/// marks where the file ends, and the header in the associated data pins the chunk size and
/// version: a chunk moved, dropped, duplicated, cut off or appended does not open where it
/// lands. The salt, fresh for each file, gives each file its own chunk key, so two files sealed
/// under one key never share a (key, nonce) pair.
enum ChunkedCipherFormat {
    static let magic = Data("QCHUNK".utf8)
    static let version: UInt8 = 1
    static let saltByteCount = 32
    /// magic, version, reserved byte, chunk size, salt.
    static let headerByteCount = 6 + 1 + 1 + 4 + 32
    static let chunkKeyInfo = Data("quire chunked file v1 chunk key".utf8)

    static func header(chunkSize: Int, salt: Data) -> Data {
        var header = magic
        header.append(version)
        header.append(0)
        header.append(contentsOf: bigEndianBytes(UInt32(chunkSize)))
        header.append(salt)
        return header
    }

    /// The chunk size and salt of `header`, checked.
    static func parse(header: Data) throws(ChunkedCipherError) -> (chunkSize: Int, salt: Data) {
        let bytes = [UInt8](header)
        guard bytes.count == headerByteCount, Data(bytes[0..<6]) == magic else {
            throw .notChunkedCiphertext
        }
        guard bytes[6] == version else { throw .unsupportedVersion(bytes[6]) }
        guard bytes[7] == 0 else { throw .notChunkedCiphertext }
        let chunkSize = bytes[8..<12].reduce(0) { $0 << 8 | Int($1) }
        guard ChunkedSealer.chunkSizes.contains(chunkSize) else { throw .invalidChunkSize(chunkSize) }
        return (chunkSize, Data(bytes[12...]))
    }

    static func chunkKey(fileKey: SymmetricKey256, salt: Data) throws -> SymmetricKey256 {
        let derived = try HKDF.sha256(
            inputKeyMaterial: fileKey.data, salt: salt, info: chunkKeyInfo, length: SymmetricKey256.byteCount)
        // HKDF returns exactly the length asked for.
        return SymmetricKey256(data: derived)!
    }

    static func nonce(index: UInt64) -> Data {
        Data(repeating: 0, count: 4) + bigEndianBytes(index)
    }

    static func associatedData(header: Data, index: UInt64, isFinal: Bool) -> Data {
        header + bigEndianBytes(index) + Data([isFinal ? 1 : 0])
    }

    static func bigEndianBytes<T: FixedWidthInteger>(_ value: T) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }
}
