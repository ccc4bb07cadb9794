import QuireClient

/// One invitation in `quire trip invites --json`.
struct InvitationJSON: Encodable {
    var id: String
    var trip: String
    var from: String
    var fingerprint: String
    /// `new`, `known` or `changed`.
    var key: String

    init(_ invitation: TripSharing.Invitation) {
        id = invitation.id
        trip = invitation.trip.description
        from = invitation.from.username
        fingerprint = invitation.from.fingerprint
        key = MemberJSON.keyState(invitation.from.key)
    }
}
