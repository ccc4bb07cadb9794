/// What happens between the simulation's account and its companion, a second account with one
/// device (issue 15). Trips are named by index into the owner device d0's live trips, resolved
/// when the step runs.
public enum CompanionStep: Hashable, Sendable, CustomStringConvertible {
    /// The companion's device does one trip step (never `create`: the trips it shares are the
    /// owner's).
    case trip(SimulationTripStep)
    /// The companion's device syncs its trips.
    case sync
    /// d0 shares the trip with the companion (an editor, or a viewer), and the companion accepts.
    case share(trip: Int, viewer: Bool)
    /// d0 makes the companion an editor or a viewer.
    case role(trip: Int, viewer: Bool)
    /// d0 removes the companion (rotating the trip's key).
    case remove(trip: Int)
    /// The companion leaves (an owner's next sync rotates the key).
    case leave(trip: Int)

    public var description: String {
        switch self {
        case .trip(let step): "companion \(step)"
        case .sync: "companion sync"
        case .share(let trip, let viewer):
            "d0 shares trip#\(trip) with the companion as \(viewer ? "viewer" : "editor")"
        case .role(let trip, let viewer): "d0 makes the companion \(viewer ? "a viewer" : "an editor") of trip#\(trip)"
        case .remove(let trip): "d0 removes the companion from trip#\(trip)"
        case .leave(let trip): "the companion leaves trip#\(trip)"
        }
    }
}
