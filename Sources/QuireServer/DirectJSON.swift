/// What the answers and fingerprints written without `JSONEncoder` have in common
/// (`PutNoteResponseDTO.wireJSON`, `PutNoteRequestDTO.wireJSON`): they write a string as it is only
/// where `WireJSON` would write it as it is, and otherwise leave the whole value to `WireJSON`.
enum DirectJSON {
    /// Printable ASCII other than `"` and `\`: what `WireJSON` (sorted keys, slashes unescaped)
    /// writes unchanged between its quotes.
    ///
    /// Reads the string's UTF-8 storage in place: stepping through `String.UTF8View` one byte at
    /// a time was 5% of a batch's CPU (a payload is about 3 KB).
    static func needsNoEscape(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes
            where byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            return true
        }
    }
}
