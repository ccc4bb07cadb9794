import Foundation

/// Writes JSON text byte for byte as ``WireJSON/encoder()`` does (sorted keys, slashes left
/// alone), for the answers whose size makes `JSONEncoder`'s character-by-character string writing
/// their main cost: a history page is 500 base64 payloads, 1.5 MB that need no escaping (measured:
/// two thirds of a `GET /v1/notes/{id}/versions` of 500 versions went there).
///
/// A string with nothing to escape (no quote, backslash or control character) is copied as its
/// UTF-8 bytes; any other string is written by `JSONEncoder` itself, so the text is always the
/// encoder's. The caller writes each object's keys in the encoder's sorted order and leaves out
/// nil values, as the synthesized `Encodable` does.
package struct JSONTextWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    package var data: Data { Data(bytes) }

    /// Punctuation or a literal, as it is.
    package mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// `"key":`, preceded by a comma unless it is the object's first.
    package mutating func key(_ name: String, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    package mutating func string(_ value: String) {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var text = value
        // Over the contiguous UTF-8 bytes: `value.utf8.contains` went through the generic
        // iterator byte by byte, barely faster than the encoder it replaces (measured).
        text.withUTF8 { utf8 in
            if utf8.contains(where: { $0 < 0x20 || $0 == quote || $0 == backslash }) {
                bytes.append(contentsOf: WireJSON.encode(value))
            } else {
                bytes.append(quote)
                bytes.append(contentsOf: utf8)
                bytes.append(quote)
            }
        }
    }

    package mutating func int(_ value: Int) {
        raw(String(value))
    }

    package mutating func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    package mutating func date(_ value: Date) {
        string(WireJSON.formatDate(value))
    }
}
