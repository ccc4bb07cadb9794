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
    static func increment(_ integer: [UInt8]) -> [UInt8]? {
        guard let head = integer.first else { return nil }
        var digits = Array(integer.dropFirst())
        var carry = true
        var index = digits.count - 1
        while carry, index >= 0 {
            let value = (Base62.value(digits[index]) ?? 0) + 1
            if value == Base62.count {
                digits[index] = Base62.zero
            } else {
                digits[index] = Base62.digits[value]
                carry = false
            }
            index -= 1
        }
        guard carry else { return [head] + digits }
        if head == UInt8(ascii: "Z") { return [UInt8(ascii: "a"), Base62.zero] }
        if head == UInt8(ascii: "z") { return nil }
        let newHead = head + 1
        if newHead > UInt8(ascii: "a") {
            digits.append(Base62.zero)
        } else {
            digits.removeLast()
        }
        return [newHead] + digits
    }

    /// The previous integer part, or nil before the smallest.
    static func decrement(_ integer: [UInt8]) -> [UInt8]? {
        guard let head = integer.first else { return nil }
        var digits = Array(integer.dropFirst())
        var borrow = true
        var index = digits.count - 1
        while borrow, index >= 0 {
            let value = (Base62.value(digits[index]) ?? 0) - 1
            if value == -1 {
                digits[index] = Base62.last
            } else {
                digits[index] = Base62.digits[value]
                borrow = false
            }
            index -= 1
        }
        guard borrow else { return [head] + digits }
        if head == UInt8(ascii: "a") { return [UInt8(ascii: "Z"), Base62.last] }
        if head == UInt8(ascii: "A") { return nil }
        let newHead = head - 1
        if newHead < UInt8(ascii: "Z") {
            digits.append(Base62.last)
        } else {
            digits.removeLast()
        }
        return [newHead] + digits
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
                while n < upper.count, (n < a.count ? a[a.startIndex + n] : Base62.zero) == upper[upper.startIndex + n] {
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
                result.append(Base62.digits[(digitA + digitB + 1) / 2])
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
