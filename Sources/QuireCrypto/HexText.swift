/// Lowercase hexadecimal text of bytes: two digits a byte, no separators.
///
/// Digests and ids are turned into hex on every request (token hashes, fingerprints, ids), so
/// this writes the digits from a table; `String(format: "%02x")` a byte cost about 1 µs each.
public enum HexText {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func string(_ bytes: some Collection<UInt8>) -> String {
        // Written straight into the string's storage: no array of digits first.
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            var index = 0
            for byte in bytes {
                text[index] = digits[Int(byte >> 4)]
                text[index + 1] = digits[Int(byte & 0x0F)]
                index += 2
            }
            return index
        }
    }
}
