import Foundation
import QuireWire

/// Where the server keeps what sharing a trip needs (issue 15): each account's key pair for
/// sharing (its private key sealed by the device), invitations, and membership changes. Every
/// method is one transaction, and none of them ever holds a trip key the server could open.
///
/// A caller who is not a member of the trip is answered as if the trip did not exist; one who
/// is but lacks the role gets `.forbidden`. Joining, a role change and a removal each take the
/// next number of the server-wide sequence and is an entry in the trip's own log (the trip field
/// `member.<username>`, in plain text: the role, or cleared when the member left), so every
/// member's trips feed moves to it and their devices learn of it by pulling; the removed member's
/// feed shows the trip once more, marked removed.
public protocol TripSharingStorage: Sendable {
    /// Stores (or replaces) the account's key pair.
    func setSharingKey(_ key: SharingKeyDTO, account: AccountID, now: Date) async throws

    /// The account's own key pair, or nil before one was stored.
    func sharingKey(account: AccountID) async throws -> SharingKeyDTO?

    /// The public key of the account `username`, or nil when there is no such account or it has
    /// not published one.
    func publicSharingKey(username: String) async throws -> PublicSharingKeyDTO?

    /// An owner of `trip` invites the account `request.username` (replacing an earlier
    /// invitation of it to this trip).
    func invite(
        _ request: TripInviteRequestDTO, trip: String, account: AccountID, inviteID: String, now: Date
    ) async throws -> TripInviteResult

    /// The invitations waiting for `account`, oldest first.
    func invites(account: AccountID) async throws -> [TripInviteDTO]

    /// `account` accepts its invitation `inviteID`, keeping the trip key as `wrappedKey`, and
    /// becomes a member with the invited role. Nil when there is no such invitation for it.
    func acceptInvite(_ inviteID: String, account: AccountID, wrappedKey: String, now: Date) async throws
        -> TripJoin?

    /// `account` declines (deletes) its invitation; false when there is none.
    func declineInvite(_ inviteID: String, account: AccountID) async throws -> Bool

    /// The trip's members, owners first, then by username; nil when `account` is not one.
    func members(_ trip: String, account: AccountID) async throws -> [TripMemberDTO]?

    /// An owner gives the member `username` the role `role`.
    func setRole(_ role: TripRole, of username: String, trip: String, account: AccountID, now: Date)
        async throws -> TripMembershipResult

    /// Whether `account` was a member of `trip` and was removed or left (and has not joined again).
    func wasRemoved(from trip: String, account: AccountID) async throws -> Bool

    /// An owner removes the member `username`, or a member removes itself (leaves). Its pending
    /// invitation goes too; its feed shows the trip as removed.
    func removeMember(_ username: String, trip: String, account: AccountID, now: Date) async throws
        -> TripMembershipResult
}

/// A join: the trip as the joining account's feed shows it, and the accounts whose trips feed
/// moved (every member: the join is an entry in the trip's log).
public struct TripJoin: Sendable, Equatable {
    public var entry: TripEntryDTO
    public var changed: [AccountID]

    public init(entry: TripEntryDTO, changed: [AccountID]) {
        self.entry = entry
        self.changed = changed
    }
}

/// The result of ``TripSharingStorage/invite(_:trip:account:inviteID:now:)``.
public enum TripInviteResult: Sendable, Equatable {
    case invited(TripInviteDTO)
    /// The caller is not a member (or there is no such trip).
    case notMember
    /// The caller is a member but not an owner.
    case forbidden
    /// No account has that username, or it has published no public key.
    case noSuchAccount
    /// The account is already a member of the trip.
    case alreadyMember
    /// The sealed key is not of the trip's current key epoch, `current`.
    case keyRotated(current: Int)
}

/// The result of a role change or a removal.
public enum TripMembershipResult: Sendable, Equatable {
    /// Done; `changed` lists the accounts whose trips feed moved.
    case changed([AccountID])
    case notMember
    case forbidden
    /// There is no member of that username in the trip.
    case noSuchMember
    /// The change would leave the trip without an owner.
    case lastOwner
}
