import Foundation
import QuireClient
import QuireDomain

/// Base64 of the content's JSON plus the note id: no encryption. For tests that need to read
/// payloads; the product always seals them (`SealedPayloadCodec`).
public struct PlainPayloadCodec: PayloadCodec {
    private struct Envelope: Codable {
        var noteID: NoteID
        var content: NoteContent
    }

    public init() {}

    public func seal(_ content: NoteContent, noteID: NoteID) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(Envelope(noteID: noteID, content: content)).base64EncodedString()
    }

    public func open(_ payload: String, noteID: NoteID) throws -> NoteContent {
        guard let data = Data(base64Encoded: payload),
            let envelope = try? JSONDecoder().decode(Envelope.self, from: data)
        else {
            throw PayloadError(noteID: noteID, reason: "not a readable payload")
        }
        guard envelope.noteID == noteID else {
            throw PayloadError(noteID: noteID, reason: "payload belongs to another note")
        }
        return envelope.content
    }
}
