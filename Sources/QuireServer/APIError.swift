import Foundation

/// An answer the server refuses a request with: HTTP status, stable snake_case code, and a message
/// that tells a person what to do. Rendered as DESIGN.md's error shape by ``HTTPResponse/error(_:)``.
struct APIError: Error, Equatable, Sendable {
    let status: Int
    let code: String
    let message: String
    /// For 405: the methods the path accepts.
    var allow: String?
    /// For 429: whole seconds to wait, sent as `Retry-After`.
    var retryAfter: Int?

    // MARK: - Routing

    static func notFound(_ message: String) -> APIError {
        APIError(status: 404, code: "not_found", message: message)
    }

    static func methodNotAllowed(_ method: String, path: String, allowed: [String]) -> APIError {
        let list = allowed.joined(separator: ", ")
        var error = APIError(
            status: 405, code: "method_not_allowed",
            message: "\(method) is not allowed on \(path); use \(list).")
        error.allow = list
        return error
    }

    static let unauthorized = APIError(
        status: 401, code: "unauthorized",
        message: "Send a valid access token as 'Authorization: Bearer <token>'; "
            + "if this one was signed out or replaced, sign in again.")

    /// `/metrics` from a client that is not on loopback, with no metrics token configured.
    static let metricsForbidden = APIError(
        status: 403, code: "forbidden",
        message: "/metrics answers loopback clients only; to scrape it from elsewhere, start the "
            + "server with --metrics-token-file and send 'Authorization: Bearer <token>'.")

    // MARK: - Request validation

    static let payloadTooLarge = APIError(
        status: 413, code: "payload_too_large",
        message: "The request body is larger than the server accepts "
            + "(\(4 * 1024 * 1024) bytes); send a smaller note.")

    /// Both Content-Length and Transfer-Encoding: which one ends the body is ambiguous.
    static let ambiguousLength = APIError(
        status: 400, code: "ambiguous_length",
        message: "Send Content-Length or Transfer-Encoding: chunked, not both.")

    /// A JSON string in the body holds a NUL (`\u0000`).
    static let nulInBody = APIError(
        status: 400, code: "invalid_request",
        message: "A string in the body holds a NUL character (\\u0000); send the text without it.")

    static let invalidNoteID = APIError(
        status: 400, code: "invalid_note_id",
        message: "The note id in the path must be a UUID, such as "
            + "/v1/notes/3f2504e0-4f89-41d3-9a0c-0305e82c3301.")

    static let missingIdempotencyKey = APIError(
        status: 400, code: "missing_idempotency_key",
        message: "Send an 'Idempotency-Key' header of 1 to 200 characters (the change id), "
            + "the same on every resend of this change.")

    static func invalidJSON(
        _ detail: String, example: String = #"{"payload": "…", "baseVersion": null}"#
    ) -> APIError {
        APIError(
            status: 400, code: "invalid_json",
            message: "The body is not valid JSON (\(detail)); send a JSON object such as "
                + "\(example).")
    }

    static func invalidRequest(_ message: String) -> APIError {
        APIError(status: 400, code: "invalid_request", message: message)
    }

    static let invalidLimit = APIError(
        status: 400, code: "invalid_limit",
        message: "'limit' must be a whole number from 1 to 500; leave it out for 200.")

    static let invalidWait = APIError(
        status: 400, code: "invalid_wait",
        message: "'wait' must be a whole number of seconds from 0 to 30; leave it out for 0.")

    static let invalidCursor = APIError(
        status: 400, code: "invalid_cursor",
        message: "'since' is not a cursor this server gave out; send the nextCursor of an earlier "
            + "page unchanged, or leave 'since' out to resync from the beginning.")

    static let cursorExpired = APIError(
        status: 410, code: "cursor_expired",
        message: "The cursor is older than the server keeps deleted notes; resync from the "
            + "beginning (leave 'since' out) and keep your pending changes.")

    // MARK: - Writes

    static let idempotencyKeyReused = APIError(
        status: 422, code: "idempotency_key_reused",
        message: "This Idempotency-Key was already used for a different request; "
            + "use a new key for a new change.")

    static let noteNotFound = APIError(
        status: 404, code: "not_found",
        message: "There is no such note; it may never have been synced. Nothing to delete.")

    /// A put past the account's quota (``NoteQuota``): a refusal the device keeps the text of.
    static func quotaExceeded(_ limit: NoteQuota.Limit) -> APIError {
        let reached =
            switch limit {
            case .notes(let most): "This account holds its most notes (\(most))"
            case .bytes(let most): "This account's notes hold their most bytes (\(most / (1024 * 1024)) MiB)"
            }
        return APIError(
            status: 403, code: "quota_exceeded",
            message: reached + ". Nothing was stored: delete or shorten notes to make room, then save the note "
                + "again to resend it.")
    }

    // MARK: - Server

    static let internalError = APIError(
        status: 500, code: "internal_error",
        message: "The server could not complete the request; try again later.")

    static let unavailable = APIError(
        status: 503, code: "unavailable",
        message: "The server is shutting down; try again in a moment.")
}
