import Foundation
import QuireTrips

/// Everything the members sheet of a shared trip shows.
public struct TripMembersState: Equatable, Sendable {
    /// Owners first, then editors, then viewers, each by username.
    public var rows: [TripMemberRow] = []
    /// A read is running.
    public var isLoading = false
    /// The members have been read at least once (they are read when the sheet asks).
    public var hasLoaded = false
    /// Only owners invite (by username or by link).
    public var canInvite = false
    /// The roles an invitation can give: editor and viewer (an owner is made with a role change).
    public var inviteRoles: [TripMemberRole] = []
    /// An invitee's key changed: what to ask before inviting them with it.
    public var keyConfirmation: String?
    /// The invite link just made.
    public var link: TripInviteLinkText?
    /// What to ask before leaving: the unsynced changes that would be lost, or that the copy here
    /// goes.
    public var leaveConfirmation: String?
    /// This account left the trip: the sheet and the trip close.
    public var hasLeft = false
    /// What the last action did.
    public var message: String?
    /// The last read or action that failed, for people.
    public var problem: String?

    public init() {}
}
