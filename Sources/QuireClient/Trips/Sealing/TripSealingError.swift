import Foundation

/// Why a trip value or key could not be sealed or opened. Carries no plaintext and no key.
public struct TripSealingError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// Not base64, does not authenticate, or not what was sealed.
        case unreadable
        /// The sealed value is longer than a field may hold.
        case tooLarge
        /// The crypto library failed.
        case failed
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
