/// The refusals of a trip's key rotation, and of writes sealed with a key the trip replaced.
extension APIError {
    /// A write (ops, an invitation, a link) sealed with a key of another epoch than the trip's,
    /// or a rotation to any epoch but the next one.
    static func tripKeyRotated(current epoch: Int) -> APIError {
        APIError(
            status: 409, code: "trip_key_rotated",
            message: "This trip's current key is epoch \(epoch) (its key rotates when a member leaves): fetch "
                + "GET /v1/trips/{id}/keys and your trips feed entry, seal again with the current key, "
                + "and resend.")
    }

    static let membersChanged = APIError(
        status: 409, code: "members_changed",
        message: "The rotation must wrap the new key for exactly the trip's members left after the "
            + "removals and its pending invitations, and these changed: fetch GET /v1/trips/{id}/keys "
            + "and rotate again.")
}
