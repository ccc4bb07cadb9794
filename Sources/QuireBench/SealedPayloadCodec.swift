import Foundation
import QuireClient
import QuireCrypto
import QuireDomain

/// AES-256-GCM payloads as DESIGN.md specifies them: base64 of (nonce, ciphertext, tag) over the
/// content's JSON, with the note id bound as associated data.
///
/// The client has only ``PlainPayloadCodec`` so far; the benchmarks seal for real so payload sizes
/// and the crypto cost are what a device will pay. Replace with the client's codec once it exists.
struct SealedPayloadCodec: PayloadCodec {
    let key: SymmetricKey256

    init(key: SymmetricKey256) {
        self.key = key
    }

    /// A codec from a 64-character hex key (how the parent hands its key to a child process).
    init?(hexKey: String) {
        var bytes: [UInt8] = []
        var characters = Array(hexKey.utf8)
        guard characters.count == 64 else { return nil }
        while !characters.isEmpty {
            guard let byte = UInt8(String(decoding: characters.prefix(2), as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(byte)
            characters.removeFirst(2)
        }
        guard let key = SymmetricKey256(data: Data(bytes)) else { return nil }
        self.key = key
    }

    var hexKey: String { key.data.map { String(format: "%02x", $0) }.joined() }

    func seal(_ content: NoteContent, noteID: NoteID) throws -> String {
        let plaintext = try JSONEncoder().encode(content)
        return try AESGCM.seal(plaintext, key: key, associatedData: Data(noteID.description.utf8))
            .base64EncodedString()
    }

    func open(_ payload: String, noteID: NoteID) throws -> NoteContent {
        guard let combined = Data(base64Encoded: payload) else {
            throw PayloadError(noteID: noteID, reason: "not base64")
        }
        do {
            let plaintext = try AESGCM.open(
                combined, key: key, associatedData: Data(noteID.description.utf8))
            return try JSONDecoder().decode(NoteContent.self, from: plaintext)
        } catch {
            throw PayloadError(noteID: noteID, reason: "does not open with this key")
        }
    }
}
