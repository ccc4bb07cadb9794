import Foundation
import QuireWire

/// A pending change's identity, sent as `Idempotency-Key`, so a resend is answered, not applied again.
///
/// A new id is a version 7 UUID (RFC 9562): the Unix time in milliseconds when the change was
/// made, then 74 random bits. Ids made one after another sort in that order (as text too), so the
/// server, which keeps its records of them in key order, writes each at the end of its index
/// instead of on a random page (docs/benchmarks.md, "Part 6, tenth pass"). What that tells the
/// server: when the change was made on the device (docs/security.md).
public struct ChangeID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UUID

    public init() { self.init(madeAt: Date()) }
    public init(_ rawValue: UUID) { self.rawValue = rawValue }

    /// A version 7 id for a change made at `date`.
    public init(madeAt date: Date) {
        var random = SystemRandomNumberGenerator()
        let high: UInt64 = random.next()
        let low: UInt64 = random.next()
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1_000).rounded(.down)))
        func byte(_ value: UInt64, _ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: value >> shift) }
        rawValue = UUID(
            uuid: (
                byte(milliseconds, 40), byte(milliseconds, 32), byte(milliseconds, 24), byte(milliseconds, 16),
                byte(milliseconds, 8), byte(milliseconds, 0),
                0x70 | (byte(high, 0) & 0x0f), byte(high, 8),  // version 7, then 12 random bits
                0x80 | (byte(low, 0) & 0x3f), byte(low, 8),  // RFC 9562's variant, then 62 random bits
                byte(low, 16), byte(low, 24), byte(low, 32), byte(low, 40), byte(low, 48), byte(low, 56)
            ))
    }

    public init?(_ text: String) {
        guard let uuid = UUIDText.parse(text) else { return nil }
        rawValue = uuid
    }

    public var description: String { rawValue.uuidString.lowercased() }
}
