import Foundation

/// Reads the common shape of a PUT body without Foundation's `JSONDecoder`: one flat object whose
/// keys are among `payload`, `baseVersion` and `baseVersionTag`, each at most once, with plain
/// ASCII strings (printable, no escapes), small non-negative integers written without a leading
/// zero, or `null`, and JSON whitespace between tokens. That is what every client sends.
///
/// Anything else (an escape, a non-ASCII byte, a key it does not know, a repeated key, a number
/// with a sign, fraction or exponent, trailing bytes) gives nil, and the caller decodes the body
/// with `JSONDecoder` as before. So a body it reads is one `JSONDecoder` reads to the same values,
/// and every other body gets exactly the answer it got before (RequestValidation's tests compare
/// the two on many bodies).
struct PutBodyScanner {
    /// The fields read; nil for a field sent as `null` or left out (`JSONDecoder` reads both as
    /// nil into an optional).
    struct Fields: Equatable {
        var payload: String?
        var baseVersion: Int?
        var baseVersionTag: String?
    }

    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The fields of `body`, or nil when it is not in the shape this reads.
    static func scan(_ body: Data) -> Fields? {
        body.withUnsafeBytes { bytes in
            var scanner = PutBodyScanner(bytes)
            return scanner.object()
        }
    }

    private mutating func object() -> Fields? {
        var fields = Fields()
        var seen: UInt8 = 0
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        skipSpace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipSpace()
                guard let key = plainString() else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                // Each known key once: a repeated one goes to JSONDecoder, whatever it makes of it.
                switch key {
                case "payload" where seen & 1 == 0:
                    guard let value = stringOrNull() else { return nil }
                    (fields.payload, seen) = (value, seen | 1)
                case "baseVersion" where seen & 2 == 0:
                    guard let value = integerOrNull() else { return nil }
                    (fields.baseVersion, seen) = (value, seen | 2)
                case "baseVersionTag" where seen & 4 == 0:
                    guard let value = stringOrNull() else { return nil }
                    (fields.baseVersionTag, seen) = (value, seen | 4)
                default:
                    return nil
                }
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        skipSpace()
        return index == bytes.count ? fields : nil
    }

    /// A string of printable ASCII with no escape; nil for anything else.
    private mutating func plainString() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    /// `.some(nil)` for `null`, `.some(text)` for a plain string, nil otherwise.
    private mutating func stringOrNull() -> String?? {
        if takeNull() { return .some(nil) }
        return plainString().map { .some($0) }
    }

    /// `.some(nil)` for `null`, `.some(n)` for 1 to 18 digits without a leading zero (or `0`
    /// alone), nil otherwise.
    private mutating func integerOrNull() -> Int?? {
        if takeNull() { return .some(nil) }
        let start = index
        var value = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            // 19 digits may not fit an Int: left to JSONDecoder before the sum can overflow.
            guard index - start < 18 else { return nil }
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        let digits = index - start
        guard (1...18).contains(digits), digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        // A number must end where a JSON number ends: no fraction, exponent or other byte after.
        if index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "}"),
            !Self.isSpace(bytes[index])
        {
            return nil
        }
        return .some(value)
    }

    private mutating func takeNull() -> Bool {
        guard index + 4 <= bytes.count, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
            bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
    }

    /// JSON's whitespace: space, tab, line feed, carriage return.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
