import Foundation

/// A trip this account joined, and as what: the trip itself arrives with the next sync.
public struct TripJoin: Hashable, Sendable {
    public var trip: TripID
    public var role: TripMemberRole

    public init(trip: TripID, role: TripMemberRole) {
        self.trip = trip
        self.role = role
    }
}
