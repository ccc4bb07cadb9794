// MARK: - The two parts of a key

/// A key split into its integer part (head letter and its digits) and its fractional part.
struct ParsedKey {
    var bytes: [UInt8]
    var integerLength: Int

    var integer: [UInt8] { Array(bytes[..<integerLength]) }
    var fraction: [UInt8] { Array(bytes[integerLength...]) }

    /// A key this module just made (so known to be valid).
    init(trusted bytes: [UInt8]) {
        self.bytes = bytes
        self.integerLength = OrderKey.integerLength(head: bytes[0]) ?? bytes.count
    }

    init(bytes: [UInt8], integerLength: Int) {
        self.bytes = bytes
        self.integerLength = integerLength
    }
}

extension OrderKey {
    /// The integer part below which nothing is left: `A` and 26 zeros. It is never a key by
    /// itself (nothing could go before it), only with a fractional part.
    static let smallestInteger: [UInt8] = [UInt8(ascii: "A")] + Array(repeating: Base62.zero, count: 26)

    /// The length of an integer part from its head letter, or nil when the head is not a letter.
    static func integerLength(head: UInt8) -> Int? {
        switch head {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(head - UInt8(ascii: "a")) + 2
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(UInt8(ascii: "Z") - head) + 2
        default: nil
        }
    }

    /// Reads and checks a key.
    static func parse(_ key: String) throws -> ParsedKey {
        let bytes = Array(key.utf8)
        guard let head = bytes.first else { throw OrderKeyError.malformed(key, "empty") }
        guard let length = integerLength(head: head) else {
            throw OrderKeyError.malformed(key, "it must start with a letter")
        }
        guard bytes.allSatisfy({ Base62.value($0) != nil }) else {
            throw OrderKeyError.malformed(key, "only 0-9, A-Z and a-z are digits")
        }
        guard bytes.count >= length else {
            throw OrderKeyError.malformed(key, "its head asks for \(length) characters of integer part")
        }
        if bytes == smallestInteger {
            throw OrderKeyError.malformed(key, "nothing could sort before it")
        }
        if bytes.count > length, bytes.last == Base62.zero {
            throw OrderKeyError.malformed(key, "its fractional part ends in 0")
        }
        return ParsedKey(bytes: bytes, integerLength: length)
    }

    // MARK: - Stepping the integer part

    /// The next integer part, or nil after the largest (`z` and 26 `z`s).
    static func increment(_ integer: [UInt8]) -> [UInt8]? { step(integer, up: true) }

    /// The previous integer part, or nil before the smallest (`A` and 26 zeros).
    static func decrement(_ integer: [UInt8]) -> [UInt8]? { step(integer, up: false) }

    /// Adds or takes one, carrying (or borrowing) leftward from the last digit; when every digit
    /// rolls over, the integer part changes length, and its head letter with it.
    private static func step(_ integer: [UInt8], up: Bool) -> [UInt8]? {
        guard let head = integer.first else { return nil }
        var digits = Array(integer.dropFirst())
        let rolled = up ? Base62.zero : Base62.last
        for index in digits.indices.reversed() {
            let value = (Base62.value(digits[index]) ?? 0) + (up ? 1 : -1)
            if (0..<Base62.count).contains(value) {
                digits[index] = Base62.digits[value]
                return [head] + digits
            }
            digits[index] = rolled
        }
        switch (head, up) {
        case (UInt8(ascii: "z"), true), (UInt8(ascii: "A"), false): return nil
        case (UInt8(ascii: "Z"), true): return [UInt8(ascii: "a"), Base62.zero]
        case (UInt8(ascii: "a"), false): return [UInt8(ascii: "Z"), Base62.last]
        default:
            let newHead = up ? head + 1 : head - 1
            // Lowercase heads lengthen going up, uppercase heads going down.
            if (newHead >= UInt8(ascii: "a")) == up {
                digits.append(rolled)
            } else {
                digits.removeLast()
            }
            return [newHead] + digits
        }
    }

    // MARK: - The fractional part

    /// A fractional part strictly between `a` and `b` (nil: above every fraction), neither of
    /// which ends in `0`, `a` below `b`. Never ends in `0`.
    ///
    /// A loop, not the reference's recursion, so a long key from the wire cannot exhaust the
    /// stack. Throws `notAscending` if `b` runs out, which valid ascending inputs never do.
    static func midpoint(_ a: [UInt8], _ b: [UInt8]?) throws -> [UInt8] {
        var result: [UInt8] = []
        var a = a[...]
        var b = b.map { $0[...] }
        while true {
            if let upper = b {
                // Drop the common prefix, reading `a` as padded with zeros.
                var n = 0
                while n < upper.count, (n < a.count ? a[a.startIndex + n] : Base62.zero) == upper[upper.startIndex + n]
                {
                    n += 1
                }
                if n > 0 {
                    result += upper.prefix(n)
                    a = a.dropFirst(n)
                    b = upper.dropFirst(n)
                    continue
                }
                guard !upper.isEmpty else { throw OrderKeyError.notAscending }
            }
            let digitA = a.first.flatMap(Base62.value) ?? 0
            let digitB = b.map { Base62.value($0.first ?? Base62.zero) ?? 0 } ?? Base62.count
            if digitB - digitA > 1 {
                // The reference rounds the middle up. Against an open end (b absent) that wastes
                // a digit: repeated inserts right before an item then grew a character every
                // five inserts instead of six (1,000 inserts: 200 characters, not 167). Round
                // down there, up otherwise: every digit gets used either way.
                let middle = b == nil ? (digitA + digitB) / 2 : (digitA + digitB + 1) / 2
                result.append(Base62.digits[middle])
                return result
            }
            if let upper = b, upper.count > 1 {
                // The digits are consecutive and b goes on: b's first digit alone is between.
                result.append(upper[upper.startIndex])
                return result
            }
            // b is absent or one digit right above a's first: keep a's digit, go above the rest of a.
            result.append(Base62.digits[digitA])
            a = a.dropFirst()
            b = nil
        }
    }
}
