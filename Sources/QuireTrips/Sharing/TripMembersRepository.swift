import Foundation

/// Sharing one of this account's trips (issue 15), for the members screen: as `quire trip members`,
/// `share`, `invite` (and `invite --revoke`), `role`, `remove` and `leave`. Each call talks to the server at once.
public protocol TripMembersRepository: Sendable {
    /// This account's username, as member lists name it.
    var username: String { get }

    /// The trip's members, each with their key checked against the one this device first saw.
    func members(of trip: TripID) async throws -> [TripMember]

    /// Invites `username` as `role` (editor or viewer). Throws ``TripMembersError/keyChanged``
    /// when their key changed, unless `trustingNewKey`. Returns them as checked.
    func share(_ trip: TripID, with username: String, role: TripMemberRole, trustingNewKey: Bool) async throws
        -> TripMember

    /// A new invite link for `role`: whoever has its text can join.
    func inviteLink(to trip: TripID, role: TripMemberRole) async throws -> String

    /// Revokes an invite link (its whole text): it lets nobody else join.
    func revokeLink(_ link: String, of trip: TripID) async throws

    func setRole(_ role: TripMemberRole, of member: String, in trip: TripID) async throws

    /// Removes `member`, giving the trip a new key they do not have.
    func remove(_ member: String, from trip: TripID) async throws

    /// Changes to the trip made here that have not reached the server: lost on leaving.
    func unsentChanges(of trip: TripID) async throws -> Int

    /// Leaves the trip; this device's copy is deleted.
    func leave(_ trip: TripID) async throws
}
