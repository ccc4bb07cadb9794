import Foundation

/// The most trips may hold (issue 12, item 8, for trips as ``NoteQuota`` is for notes): the trips
/// one account owns, and the bytes of one trip's values. Without it one account could fill the
/// server's disk through trips, which the notes' quota does not see. A request past either is
/// refused in the transaction that would have stored it, and nothing is recorded with its op id,
/// so the same request passes once there is room.
public struct TripQuota: Sendable, Equatable {
    /// The most trips an account owns (deleted ones do not count). Default 100.
    public var maxOwnedTrips: Int
    /// The most bytes of a trip's values together, as sealed (its member entries and tombstones
    /// excepted). Default 8 MiB: a trip of 500 items is about 240 KB.
    public var maxBytesPerTrip: Int64

    public init(maxOwnedTrips: Int = 100, maxBytesPerTrip: Int64 = 8 << 20) {
        self.maxOwnedTrips = max(0, maxOwnedTrips)
        self.maxBytesPerTrip = max(0, maxBytesPerTrip)
    }

    /// No limit: what a caller without the server's settings (a tool, a test) writes with.
    public static let unlimited = TripQuota(maxOwnedTrips: .max, maxBytesPerTrip: .max)

    /// Which limit a refused request would have passed.
    public enum Limit: Sendable, Equatable {
        /// Creating the trip would pass the trips an account may own.
        case ownedTrips(Int)
        /// The request's values would pass the trip's bytes.
        case tripBytes(Int64)
    }
}
