/// The digits of order keys: `0-9A-Za-z`, in ASCII order, so comparing keys byte by byte (as
/// SQLite's BINARY collation and `OrderKey.precedes` do) sorts them.
enum Base62 {
    static let digits: [UInt8] = Array(
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    static let count = 62
    static let zero = UInt8(ascii: "0")
    static let last = UInt8(ascii: "z")

    /// The digit's value, 0 to 61, or nil for a byte that is not a digit.
    static func value(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A")) + 10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a")) + 36
        default: nil
        }
    }
}
