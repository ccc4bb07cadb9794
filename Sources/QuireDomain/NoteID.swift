import Foundation
import QuireWire

/// A note's identity, made on the device so a note exists before any server has seen it.
///
/// A new id is a version 7 UUID (``Foundation/UUID/timeOrdered(madeAt:)``): the millisecond the
/// note was made, then random bits, so notes made later sort later and the server writes each new
/// note at the end of its notes' key instead of on a random page. Ids of earlier releases are
/// random (version 4) and are read like any other.
public struct NoteID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public let rawValue: UUID

    public init() { self.init(madeAt: Date()) }
    public init(madeAt date: Date) { rawValue = UUID.timeOrdered(madeAt: date) }
    public init(_ rawValue: UUID) { self.rawValue = rawValue }

    /// Parses a UUID in any case; nil for anything else.
    public init?(_ text: String) {
        guard let uuid = UUIDText.parse(text) else { return nil }
        rawValue = uuid
    }

    /// The lowercase UUID, as it travels on the wire and is stored.
    public var description: String { rawValue.uuidString.lowercased() }

    /// What a list shows of the id, and what a person types: ``QuireWire/ShortID``.
    public var short: String { ShortID.of(description) }

    /// Whether a person's `typed` id (4 characters or more, any case) names this note.
    public func isNamed(by typed: String) -> Bool { ShortID.matches(typed, id: description) }

    public static func < (lhs: NoteID, rhs: NoteID) -> Bool { lhs.description < rhs.description }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = NoteID(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a note id: \(text)"))
        }
        self = id
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
