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

    /// A version 7 id for a change made at `date` (``Foundation/UUID/timeOrdered(madeAt:)``).
    public init(madeAt date: Date) { rawValue = UUID.timeOrdered(madeAt: date) }

    public init?(_ text: String) {
        guard let uuid = UUIDText.parse(text) else { return nil }
        rawValue = uuid
    }

    public var description: String { rawValue.uuidString.lowercased() }
}
