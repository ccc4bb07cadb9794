/// Order keys: strings that sort between their neighbours, so a move or an insert writes one
/// field of one item (seed 002 §4). Items sort by (key, item id), comparing bytes.
///
/// The format is the fractional indexing of rocicorp/fractional-indexing (after David
/// Greenspan), in base 62 (`0-9A-Za-z`): an integer part whose head letter encodes its length
/// (`a`–`z`: 2 to 27 characters, growing upward; `Z`–`A`: 2 to 27, growing downward), then a
/// fractional part that never ends in `0`. Appends and prepends step the integer part, so they
/// stay short (`a0`, `a1`, … `az`, `b00`, …); only inserts between two neighbours grow the
/// fractional part, about one character per six inserts at one spot.
///
/// Keys are plain ASCII; a key from another device may be anything, so every function checks
/// its inputs and throws `OrderKeyError` rather than trapping.
public enum OrderKey {
    /// The key of the first item of an empty list.
    public static let first = "a0"

    /// Returns a key that sorts strictly between `a` and `b`; `nil` is an open end.
    ///
    /// Throws `OrderKeyError.malformedKey` when either key is not a valid key, and
    /// `OrderKeyError.notAscending` when `a` does not sort strictly before `b`. Two devices
    /// that insert at the same spot offline may make the same key; the item id orders them.
    public static func between(_ a: String?, _ b: String?) throws -> String {
        let lower = try a.map(parse)
        let upper = try b.map(parse)
        if let a, let b, let lower, let upper, !lower.bytes.lexicographicallyPrecedes(upper.bytes) {
            throw OrderKeyError.notAscending(a, b)
        }
        return String(decoding: try between(lower, upper), as: UTF8.self)
    }

    /// Returns `count` ascending keys strictly between `a` and `b`, spread over the space
    /// between them: with an open upper end, successive integers (`a0`, `a1`, …), which is what
    /// a rebalance of a day uses; between two keys, by halving.
    ///
    /// Returns an empty list for a count of zero or less. Throws as `between(_:_:)` does.
    public static func keys(count: Int, between a: String?, and b: String?) throws -> [String] {
        let lower = try a.map(parse)
        let upper = try b.map(parse)
        if let a, let b, let lower, let upper, !lower.bytes.lexicographicallyPrecedes(upper.bytes) {
            throw OrderKeyError.notAscending(a, b)
        }
        return try keys(count, lower, upper).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Checks a key read from the wire or the database: throws `OrderKeyError.malformedKey`,
    /// with what is wrong, unless it is a key this format makes.
    public static func validate(_ key: String) throws {
        _ = try parse(key)
    }

    /// Whether `key` is a key this format makes.
    public static func isValid(_ key: String) -> Bool {
        (try? parse(key)) != nil
    }

    /// The order of keys: byte by byte, as SQLite's BINARY collation compares them. It is
    /// defined for any strings, valid keys or not, so a list with a malformed key still sorts
    /// the same on every device.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    // MARK: - Generation on parsed keys

    private static func between(_ a: ParsedKey?, _ b: ParsedKey?) throws -> [UInt8] {
        switch (a, b) {
        case (nil, nil):
            return Array(first.utf8)
        case (nil, let b?):
            if b.integer == smallestInteger { return b.integer + (try midpoint([], b.fraction)) }
            if !b.fraction.isEmpty { return b.integer }
            // Only the smallest integer has no predecessor, and it was handled above.
            guard let lower = decrement(b.integer) else { throw OrderKeyError.notAscending }
            return lower
        case (let a?, nil):
            guard let higher = increment(a.integer) else {
                return a.integer + (try midpoint(a.fraction, nil))
            }
            return higher
        case (let a?, let b?):
            if a.integer == b.integer { return a.integer + (try midpoint(a.fraction, b.fraction)) }
            // a's integer is below b's, so it is not the largest and has a successor.
            guard let higher = increment(a.integer) else { throw OrderKeyError.notAscending }
            if higher.lexicographicallyPrecedes(b.bytes) { return higher }
            return a.integer + (try midpoint(a.fraction, nil))
        }
    }

    private static func keys(_ count: Int, _ a: ParsedKey?, _ b: ParsedKey?) throws -> [[UInt8]] {
        guard count > 0 else { return [] }
        if count == 1 { return [try between(a, b)] }
        if a == nil || b == nil {
            // Successive integers away from the given end (from "a0" when neither is given).
            var result: [[UInt8]] = []
            var edge = b == nil ? a : b
            for _ in 0..<count {
                let key = try b == nil ? between(edge, nil) : between(nil, edge)
                result.append(key)
                edge = ParsedKey(trusted: key)
            }
            return b == nil ? result : result.reversed()
        }
        let middle = try between(a, b)
        let parsedMiddle = ParsedKey(trusted: middle)
        let below = count / 2
        return try keys(below, a, parsedMiddle) + [middle]
            + keys(count - below - 1, parsedMiddle, b)
    }
}
