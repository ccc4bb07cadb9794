import Foundation

/// The canonical 36-character UUID text (8-4-4-4-12 hex digits, any case), read in one pass over
/// its bytes without Foundation's parser: on Linux that goes through `sscanf`, and dominated
/// reading a 10,000-note list on the device and a note id on every note request of the server.
/// Shared by client and server, so both accept exactly the same ids.
public enum UUIDText {
    /// The UUID `text` names; nil for anything but the canonical form.
    public static func parse(_ text: String) -> UUID? {
        var raw = [UInt8](repeating: 0, count: 16)
        let valid = scan(text) { index, value in
            // Digits fill the 16 bytes in order, high nibble first; a dash moves nothing.
            guard let value else { return }
            let digit = index - dashes(before: index)
            raw[digit / 2] |= digit.isMultiple(of: 2) ? value << 4 : value
        }
        guard valid else { return nil }
        return UUID(
            uuid: (
                raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7], raw[8], raw[9],
                raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
            ))
    }

    /// `text` lowercased when it is in the canonical form; nil for anything else. The same answer
    /// as `UUID(uuidString:)` and `uuidString.lowercased()` for every id in that form.
    public static func lowercased(_ text: String) -> String? {
        // Written straight into the new string's storage; none is made for a text that fails.
        let lowered = String(unsafeUninitializedCapacity: 36) { out in
            let valid = scan(text) { index, value in
                out[index] = value.map { hexDigits[Int($0)] } ?? UInt8(ascii: "-")
            }
            return valid ? 36 : 0
        }
        return lowered.isEmpty ? nil : lowered
    }

    /// Calls `each` with every place of `text` and its digit's value (nil for a dash), and says
    /// whether `text` is in the canonical form; stops at the first byte that is not.
    private static func scan(_ text: String, _ each: (_ index: Int, _ value: UInt8?) -> Void) -> Bool {
        var text = text
        return text.withUTF8 { bytes -> Bool in
            guard bytes.count == 36 else { return false }
            for index in 0..<36 {
                let byte = bytes[index]
                if isDashPlace(index) {
                    guard byte == UInt8(ascii: "-") else { return false }
                    each(index, nil)
                } else {
                    guard let value = nibble(byte) else { return false }
                    each(index, value)
                }
            }
            return true
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func isDashPlace(_ index: Int) -> Bool {
        index == 8 || index == 13 || index == 18 || index == 23
    }

    /// How many dashes the canonical form has before `index`.
    private static func dashes(before index: Int) -> Int {
        (index > 8 ? 1 : 0) + (index > 13 ? 1 : 0) + (index > 18 ? 1 : 0) + (index > 23 ? 1 : 0)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
