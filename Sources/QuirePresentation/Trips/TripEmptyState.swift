/// Why the trip screen shows no items.
public enum TripEmptyState: Equatable, Sendable {
    /// The trip has not been read yet.
    case loading
    /// The trip is not on this device, or it was deleted (here or on another device).
    case tripGone
    /// The trip has no items.
    case noItems

    /// The words the screen shows.
    public var headline: String {
        switch self {
        case .loading: "Loading the trip…"
        case .tripGone: "This trip was deleted"
        case .noItems: "No plans yet"
        }
    }
}
