import Foundation
import QuireWire

/// A pending change's identity, sent as `Idempotency-Key`, so a resend is answered, not applied again.
public struct ChangeID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UUID

    public init() { rawValue = UUID() }
    public init(_ rawValue: UUID) { self.rawValue = rawValue }

    public init?(_ text: String) {
        guard let uuid = UUIDText.parse(text) else { return nil }
        rawValue = uuid
    }

    public var description: String { rawValue.uuidString.lowercased() }
}
