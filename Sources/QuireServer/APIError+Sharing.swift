/// The refusals of the sharing routes.
extension APIError {
    static let notAnOwner = APIError(
        status: 403, code: "forbidden",
        message: "Only an owner of this trip can invite, change roles or remove others; ask an owner.")

    static let noSharingKey = APIError(
        status: 404, code: "not_found",
        message: "No account of that username can be invited yet: check the spelling, or ask them to "
            + "sign in again or run 'quire trip invites' once, which publishes their sharing key.")

    static let alreadyMember = APIError(
        status: 409, code: "already_member",
        message: "That account is already a member of this trip; change its role instead.")

    static let noSuchMember = APIError(
        status: 404, code: "not_found", message: "That username is not a member of this trip.")

    static let lastOwner = APIError(
        status: 409, code: "last_owner",
        message: "This would leave the trip without an owner; make another member an owner first.")

    static let inviteNotFound = APIError(
        status: 404, code: "not_found",
        message: "There is no such invitation for this account (it was accepted, declined, replaced, "
            + "or its inviter is no longer an owner); see GET /v1/invites.")

    static let removedFromTrip = APIError(
        status: 403, code: "removed_from_trip",
        message: "You are no longer a member of this trip (an owner removed you, or you left); "
            + "ask an owner to invite you again.")

    static let noSharingKeyYet = APIError(
        status: 404, code: "not_found",
        message: "This account has no sharing key yet; publish one with PUT /v1/accounts/current/sharing-key.")
}

extension APIError {
    /// One answer for every link that cannot be used, so none of the reasons is an oracle.
    static let linkUnusable = APIError(
        status: 404, code: "link_unusable",
        message: "This invite link cannot be used: it expired, was revoked or used up, or was not "
            + "copied whole; ask an owner of the trip for a new one.")
}
