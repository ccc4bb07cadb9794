/// The baseline: seed 002 §4's `keyBetween`, ported line by line, kept only so the tests and
/// the benchmark can show `OrderKey` beside it. Do not use it for items.
///
/// Its keys are one fraction with no integer part, so every append or prepend halves the room
/// left at that end: 10,000 appends reach 2,000 characters and 10,000 prepends 1,667 (measured
/// by `SeedOrderKeyTests`). Where the Kotlin would throw (`require`, an index out of range) this
/// throws `OrderKeyError`.
public enum SeedOrderKey {
    private static let digits = Base62.digits

    /// `keyBetween(a, b)` of the seed.
    public static func between(_ a: String?, _ b: String?) throws -> String {
        if let a, let b, !OrderKey.precedes(a, b) { throw OrderKeyError.notAscending(a, b) }
        var key: [UInt8] = []
        try mid(Array((a ?? "").utf8)[...], b.map { Array($0.utf8)[...] }, into: &key)
        return String(decoding: key, as: UTF8.self)
    }

    // Keys never end in '0', so there is always room between two distinct keys.
    // The seed's recursion, appending to one buffer where the Kotlin concatenates strings (the
    // same keys, without copying a 2,000-character key at every level).
    private static func mid(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>?, into key: inout [UInt8]) throws {
        if let b {
            var n = 0
            while n < b.count, (n < a.count ? a[a.startIndex + n] : Base62.zero) == b[b.startIndex + n] { n += 1 }
            if n > 0 {
                key += b.prefix(n)
                return try mid(a.dropFirst(n), b.dropFirst(n), into: &key)
            }
        }
        let da = try a.isEmpty ? 0 : index(a.first)
        let db = try b == nil ? digits.count : index(b?.first)
        if db - da > 1 { return key.append(digits[(da + db + 1) / 2]) }
        if let b, b.count > 1 { return key += b.prefix(1) }
        key.append(digits[da])
        try mid(a.dropFirst(), nil, into: &key)
    }

    private static func index(_ byte: UInt8?) throws -> Int {
        guard let byte, let value = Base62.value(byte) else { throw OrderKeyError.malformedKey }
        return value
    }
}
