import Foundation

extension UUID {
    /// A version 7 UUID (RFC 9562) for something made at `date`: the Unix time in milliseconds,
    /// then 74 random bits. Ids made one after another sort in that order, as text too, so a
    /// server keeping them in key order writes each new one at the end of its index instead of on
    /// a random page (docs/benchmarks.md, "Part 6, eleventh pass"). What that tells the server:
    /// when each was made on the device, to the millisecond (docs/security.md).
    public static func timeOrdered(madeAt date: Date = Date()) -> UUID {
        var random = SystemRandomNumberGenerator()
        let high: UInt64 = random.next()
        let low: UInt64 = random.next()
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1_000).rounded(.down)))
        func byte(_ value: UInt64, _ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: value >> shift) }
        return UUID(
            uuid: (
                byte(milliseconds, 40), byte(milliseconds, 32), byte(milliseconds, 24), byte(milliseconds, 16),
                byte(milliseconds, 8), byte(milliseconds, 0),
                0x70 | (byte(high, 0) & 0x0f), byte(high, 8),  // version 7, then 12 random bits
                0x80 | (byte(low, 0) & 0x3f), byte(low, 8),  // RFC 9562's variant, then 62 random bits
                byte(low, 16), byte(low, 24), byte(low, 32), byte(low, 40), byte(low, 48), byte(low, 56)
            ))
    }
}
