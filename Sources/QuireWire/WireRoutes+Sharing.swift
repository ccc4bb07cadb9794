/// The sharing routes (issue 15).
extension WireRoutes {
    /// `PUT` and `GET` the account's own key pair for sharing.
    public static let sharingKey = "/v1/accounts/current/sharing-key"
    /// `GET` another account's public key.
    public static func sharingKey(of username: String) -> String { "/v1/accounts/\(username)/sharing-key" }
    /// `POST` an invitation to the trip.
    public static func tripInvites(_ trip: String) -> String { tripsPrefix + trip + "/invites" }
    /// `GET` the trip's members.
    public static func tripMembers(_ trip: String) -> String { tripsPrefix + trip + "/members" }
    /// `PUT` a member's role, `DELETE` a member (an owner removing, or the member leaving).
    public static func tripMember(_ trip: String, _ username: String) -> String {
        tripsPrefix + trip + "/members/" + username
    }
    /// The trip field a membership change is written as, followed by the member's username:
    /// `member.ada`, in plain text (the role, or null once the member left). The server writes it;
    /// an op naming it is refused like any field not in ``TripWireFields``.
    public static let memberFieldPrefix = "member."
    /// `GET` the trip's key chain and who a rotation must cover; `POST` a rotation.
    public static func tripKeys(_ trip: String) -> String { tripsPrefix + trip + "/keys" }
    /// `GET` the invitations waiting for this account.
    public static let invites = "/v1/invites"
    public static let invitesPrefix = "/v1/invites/"
    public static func acceptInvite(_ id: String) -> String { invitesPrefix + id + "/accept" }
    public static func declineInvite(_ id: String) -> String { invitesPrefix + id + "/decline" }
}

/// The invite-link routes (issue 15).
extension WireRoutes {
    /// `POST` a new invite link to the trip.
    public static func tripLinks(_ trip: String) -> String { tripsPrefix + trip + "/links" }
    /// `DELETE` (revoke) one.
    public static func tripLink(_ trip: String, _ link: String) -> String { tripsPrefix + trip + "/links/" + link }
    /// `POST` to read a link's sealed key, and to join with it.
    public static func openLink(_ link: String) -> String { "/v1/links/" + link + "/open" }
    public static func joinLink(_ link: String) -> String { "/v1/links/" + link + "/join" }
}
