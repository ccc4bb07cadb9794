/// Lowercase hexadecimal text of bytes: two digits a byte, no separators.
///
/// Digests and ids are turned into hex on every request (token hashes, fingerprints, ids), so
/// this writes the digits from a table; `String(format: "%02x")` a byte cost about 1 µs each.
public enum HexText {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
