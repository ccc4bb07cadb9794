/// The refusals of the trips routes.
extension APIError {
    /// A trip, or an ops request, past ``TripQuota``: a refusal the device keeps the values of.
    static func tripQuotaExceeded(_ limit: TripQuota.Limit) -> APIError {
        let reached =
            switch limit {
            case .ownedTrips(let most):
                "This account owns its most trips (\(most)). Nothing was stored: the trip stays on this device "
                    + "only. Delete a trip you own to make room; the next sync creates this one."
            case .tripBytes(let most):
                "This trip holds its most bytes (\(most / (1024 * 1024)) MiB of values). Nothing was stored: "
                    + "delete items or shorten notes in this trip to make room, then make the change again."
            }
        return APIError(status: 403, code: "quota_exceeded", message: reached)
    }

    static let invalidTripID = APIError(
        status: 400, code: "invalid_trip_id",
        message: "The trip id in the path must be a lowercase UUID, such as "
            + "/v1/trips/3f2504e0-4f89-41d3-9a0c-0305e82c3301.")

    /// The same answer for a trip that does not exist and one the caller is not a member of, so
    /// neither is revealed.
    static let tripNotFound = APIError(
        status: 404, code: "not_found",
        message: "There is no such trip for this account; create it with PUT /v1/trips/{id}.")

    static let tripExists = APIError(
        status: 409, code: "trip_exists",
        message: "Another account already has a trip with this id; make a new id for this trip.")

    static let tripReadOnly = APIError(
        status: 403, code: "forbidden",
        message: "Your role in this trip lets you read it but not change it; ask an owner to "
            + "make you an editor.")

    static let opIDReused = APIError(
        status: 422, code: "op_id_reused",
        message: "This opId was already used for a different request to this trip; use a new "
            + "opId for new ops.")

    static let invalidTripCursor = APIError(
        status: 400, code: "invalid_cursor",
        message: "'cursor' is not a cursor this server gave out for this trip; send the "
            + "nextCursor of an earlier page unchanged, or fetch the snapshot (GET /v1/trips/{id}).")

    static let tripCursorExpired = APIError(
        status: 410, code: "cursor_expired",
        message: "The cursor is older than the server keeps deleted items of this trip; fetch "
            + "the snapshot (GET /v1/trips/{id}), replace your copy and keep your waiting ops.")

    static let tripsUnavailable = APIError(
        status: 501, code: "not_implemented",
        message: "This server's storage does not keep trips; run it on the SQLite or PostgreSQL store.")
}
