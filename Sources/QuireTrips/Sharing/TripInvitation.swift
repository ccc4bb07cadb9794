import Foundation

/// An invitation to a trip waiting for this account: who sent it, with their key as this device
/// checked it.
public struct TripInvitation: Hashable, Sendable, Identifiable {
    public var id: String
    public var trip: TripID
    /// The owner who invited this account.
    public var from: TripMember

    public init(id: String, trip: TripID, from: TripMember) {
        self.id = id
        self.trip = trip
        self.from = from
    }
}
