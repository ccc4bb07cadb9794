import Foundation

/// An error of the device's own stores and codecs: a kind the code acts on, from a set that may
/// grow, and a message for people (STYLE: an error set that may grow is a struct over its kinds).
/// ``NotesDatabaseError``, ``TripsDatabaseError`` and ``TripSealingError`` are its kinds.
public struct KindedError<Kind: Hashable & Sendable>: Error, Hashable, Sendable, CustomStringConvertible {
    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// True when `error` is an error of this family and of this kind.
    public static func isKind(_ kind: Kind, _ error: Error) -> Bool {
        (error as? Self)?.kind == kind
    }
}
