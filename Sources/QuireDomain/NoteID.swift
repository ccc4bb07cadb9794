import Foundation
import QuireWire

/// A note's identity, made on the device so a note exists before any server has seen it.
public struct NoteID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public let rawValue: UUID

    public init() { rawValue = UUID() }
    public init(_ rawValue: UUID) { self.rawValue = rawValue }

    /// Parses a UUID in any case; nil for anything else.
    public init?(_ text: String) {
        guard let uuid = UUIDText.parse(text) else { return nil }
        rawValue = uuid
    }

    /// The lowercase UUID, as it travels on the wire and is stored.
    public var description: String { rawValue.uuidString.lowercased() }

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
