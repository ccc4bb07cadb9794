/// What the answers and fingerprints written without `JSONEncoder` have in common
/// (`PutNoteResponseDTO.wireJSON`, `PutNoteRequestDTO.wireJSON`): they write a string as it is only
/// where `WireJSON` would write it as it is, and otherwise leave the whole value to `WireJSON`.
enum DirectJSON {
    /// Printable ASCII other than `"` and `\`: what `WireJSON` (sorted keys, slashes unescaped)
    /// writes unchanged between its quotes.
    ///
    /// Reads the string's UTF-8 storage in place, eight bytes at a time: stepping through
    /// `String.UTF8View` one byte at a time was 5% of a batch's CPU, and a loop over the bytes
    /// still 3 to 4% (a payload is about 3 KB).
    static func needsNoEscape(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while index + 8 <= bytes.count {
                    if hasByteToEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return false }
                    index += 8
                }
            }
            while index < bytes.count {
                if isByteToEscape(bytes[index]) { return false }
                index += 1
            }
            return true
        }
    }

    static func isByteToEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether any of the eight bytes of `word` is one ``isByteToEscape(_:)`` names, by the
    /// usual word-at-a-time tests: `(x - n) & ~x & 0x80…` has a high bit set exactly when some
    /// byte of `x` is below `n` (for `n` up to 0x80), which for `n` = 1 finds a zero byte, and so
    /// a byte equal to `c` in `x ^ c…`.
    static func hasByteToEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        if word & highs != 0 { return true }  // 0x80 and above
        // Every byte is 0x7F or below from here: adding one sets a high bit only in 0x7F, and
        // carries into no other byte.
        if (word &+ ones) & highs != 0 { return true }
        if (word &- 0x20 &* ones) & ~word & highs != 0 { return true }  // control characters
        let quotes = word ^ (UInt64(UInt8(ascii: "\"")) &* ones)
        if (quotes &- ones) & ~quotes & highs != 0 { return true }
        let backslashes = word ^ (UInt64(UInt8(ascii: "\\")) &* ones)
        return (backslashes &- ones) & ~backslashes & highs != 0
    }
}
