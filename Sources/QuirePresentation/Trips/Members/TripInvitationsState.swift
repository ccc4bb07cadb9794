import Foundation
import QuireTrips

/// Everything the invitations screen shows.
public struct TripInvitationsState: Equatable, Sendable {
    public var rows: [TripInvitationRow] = []
    /// A read is running.
    public var isLoading = false
    /// The invitations have been read at least once (they are read when the screen asks).
    public var hasLoaded = false
    /// What to show instead of rows once read.
    public var empty: String?
    /// The trip just joined: the screen can open it once it has arrived.
    public var joined: TripID?
    /// What the last action did.
    public var message: String?
    /// The last read or action that failed, for people.
    public var problem: String?

    public init() {}
}
