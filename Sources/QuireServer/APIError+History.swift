/// The refusals of the history and trash routes.
extension APIError {
    /// The same answer for a note that never existed, one of another account, and one whose
    /// tombstone (and with it its history) was purged, so none is revealed.
    static let historyNotFound = APIError(
        status: 404, code: "not_found",
        message: "There is no such note in this account (a deleted note's history goes when its "
            + "tombstone is purged); see GET /v1/notes/trash for the notes that can be restored.")

    static let historyUnavailable = APIError(
        status: 501, code: "not_implemented",
        message: "This server's storage does not keep note history; run it on the SQLite or PostgreSQL store.")

    static let invalidBefore = APIError(
        status: 400, code: "invalid_before",
        message: "'before' must be a version number from 1 up; leave it out for the newest versions.")
}
