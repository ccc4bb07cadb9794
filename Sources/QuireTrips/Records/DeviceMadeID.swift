import Foundation
import QuireWire

/// An id made on the device, so a trip or an item exists before any server has seen it: a UUID,
/// written lowercase as it travels on the wire and is stored. Typed by what it names, so a trip
/// id is never passed where an item id belongs. A new id is time-ordered (version 7,
/// ``Foundation/UUID/timeOrdered(madeAt:)``), as a note's is.
public struct DeviceMadeID<Named>: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UUID

    public init() { self.init(madeAt: Date()) }
    public init(madeAt date: Date) { rawValue = UUID.timeOrdered(madeAt: date) }

    /// Parses a UUID in any case; nil for anything else.
    public init?(_ text: String) {
        guard let uuid = UUID(uuidString: text) else { return nil }
        rawValue = uuid
    }

    public var description: String { rawValue.uuidString.lowercased() }

    /// What a list shows of the id, and what a person types: ``QuireWire/ShortID``.
    public var short: String { ShortID.of(description) }

    /// Whether a person's `typed` id (4 characters or more, any case) names this one.
    public func isNamed(by typed: String) -> Bool { ShortID.matches(typed, id: description) }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.description < rhs.description }
}

/// What a ``TripID`` names.
public enum TripIDTag {}
/// What an ``ItemID`` names.
public enum ItemIDTag {}

/// A trip's id.
public typealias TripID = DeviceMadeID<TripIDTag>
/// An itinerary item's id (unique across trips).
public typealias ItemID = DeviceMadeID<ItemIDTag>

extension DeviceMadeID: Codable {
    /// Decodes the lowercase text form (any case is accepted).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let id = Self(try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a UUID")
        }
        self = id
    }

    /// Encodes the lowercase text form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
