import Foundation

/// Reads JSON directly for the few request bodies a server decodes by the thousand (a batch
/// of changes), without `JSONDecoder`: decoding a batch of 100 notes was 6 to 7% of the batch
/// route's CPU.
///
/// It reads only the plainest JSON: strings of printable ASCII without escapes, integers without
/// fraction or exponent, `null`, and the punctuation and whitespace between. At anything else it
/// gives up (nil), and the caller decodes the body with `JSONDecoder` as before, whose value or
/// error stays the rule; so a reader built on it must also give up wherever `JSONDecoder` might
/// answer otherwise than the reader would (an unknown or repeated key, a missing one, a value of
/// another type).
struct DirectJSONReader {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// `read` over the whole of `body`: nil unless it reads a value and only whitespace follows.
    static func document<T>(_ body: Data, _ read: (inout DirectJSONReader) -> T?) -> T? {
        body.withUnsafeBytes { bytes in
            var reader = DirectJSONReader(bytes)
            guard let value = read(&reader), reader.atEnd() else { return nil }
            return value
        }
    }

    /// Reads an object, handing `field` each key with the reader at its value; false when
    /// `field` gives up (an unknown key, a repeated one, a value it cannot read) or the object
    /// is not well formed.
    mutating func object(_ field: (String, inout DirectJSONReader) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let name = string(), take(UInt8(ascii: ":")), field(name, &self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// Skips whitespace, then takes `byte` if it comes next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Skips whitespace, then takes `null` if it comes next.
    mutating func takeNull() -> Bool {
        skipSpace()
        let null: [UInt8] = [0x6E, 0x75, 0x6C, 0x6C]  // "null"
        guard index + 4 <= bytes.count, (0..<4).allSatisfy({ bytes[index + $0] == null[$0] }) else { return false }
        index += 4
        return true
    }

    /// Whether only whitespace is left.
    mutating func atEnd() -> Bool {
        skipSpace()
        return index == bytes.count
    }

    /// A string of printable ASCII without escapes; nil at anything else.
    ///
    /// Skips eight bytes at a time while none of them is one to look at (a quote, a backslash,
    /// a control character, 0x7F or above: ``DirectJSON/hasByteToEscape(_:)``): a byte at a time,
    /// a batch's payloads took as long to read as `JSONDecoder` took.
    mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        if let base = bytes.baseAddress {
            while index + 8 <= bytes.count,
                !DirectJSON.hasByteToEscape(base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            {
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<(index - 1)]), as: UTF8.self)
            }
            guard !DirectJSON.isByteToEscape(byte) else { return nil }
            index += 1
        }
        return nil
    }

    /// An integer in `Int`'s range without fraction or exponent (`-12`, `0`); nil at anything
    /// else (`1.0`, `1e3`, `01`, too large).
    mutating func integer() -> Int? {
        skipSpace()
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var value = 0
        while index < bytes.count, let digit = Self.digit(bytes[index]) {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflow, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            return nil
        }
        return value
    }

    /// Reads a key's value into `slot`: false when the key came before (`slot` is set) or `read`
    /// gives up.
    mutating func once<T>(_ slot: inout T?, _ read: (inout DirectJSONReader) -> T?) -> Bool {
        guard slot == nil, let value = read(&self) else { return false }
        slot = value
        return true
    }

    /// `null` (`.some(nil)`), or the value `read` reads (`.some(value)`); nil when neither.
    mutating func nullOr<T>(_ read: (inout DirectJSONReader) -> T?) -> T?? {
        if takeNull() { return .some(nil) }
        return read(&self).map { .some($0) }
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }
}
