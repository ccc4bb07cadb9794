import Foundation

/// Why a trip value or key could not be sealed or opened. Carries no plaintext and no key.
public typealias TripSealingError = KindedError<TripSealingErrorKind>

/// What a ``TripSealingError`` is about.
public enum TripSealingErrorKind: Hashable, Sendable {
    /// Not base64, does not authenticate, or not what was sealed.
    case unreadable
    /// The sealed value is longer than a field may hold.
    case tooLarge
    /// The crypto library failed.
    case failed
}
