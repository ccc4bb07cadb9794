import Foundation

/// Joining others' trips (issue 15), for the invitations screen: as `quire trip invites`,
/// `accept`, `decline` and `join`. Each call talks to the server at once.
public protocol TripInvitationsRepository: Sendable {
    /// The invitations waiting for this account, each inviter's key checked against the one
    /// this device first saw.
    func invitations() async throws -> [TripInvitation]

    func accept(_ invitation: String) async throws -> TripJoin

    func decline(_ invitation: String) async throws

    /// Joins by an invite link's whole text. Throws ``TripMembersError/notALink`` for text that
    /// is not one.
    func join(link text: String) async throws -> TripJoin
}
