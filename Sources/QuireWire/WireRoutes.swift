import Foundation

/// The paths, headers and limits of API v1, named once for client and server.
public enum WireRoutes {
    public static let changes = "/v1/notes/changes"
    public static let batch = "/v1/notes/batch"
    /// The most changes one batch may carry.
    public static let maxBatchSize = 100
    /// The most write positions one changes request may name in `known`.
    public static let maxKnownPositions = 32
    public static let notesPrefix = "/v1/notes/"
    public static let idempotencyKeyHeader = "Idempotency-Key"

    public static func note(_ id: String) -> String { notesPrefix + id }
    /// `GET` a note's stored versions, newest first (history).
    public static func noteVersions(_ id: String) -> String { notesPrefix + id + "/versions" }
    /// `GET` the deleted notes that can still be restored.
    public static let trash = "/v1/notes/trash"

    public static let accounts = "/v1/accounts"
    public static func kdf(_ username: String) -> String { "/v1/accounts/\(username)/kdf" }
    public static let password = "/v1/accounts/current/password"
    /// `PUT` makes or replaces the account's recovery key (bearer auth and the current password).
    public static let recovery = "/v1/accounts/current/recovery"
    /// `POST` the recovery copy of the notes key, for the recovery auth key.
    public static let recoveryWrappedKey = "/v1/accounts/recovery/wrapped-notes-key"
    /// `POST` a new password, proven by the recovery auth key.
    public static let recoverPassword = "/v1/accounts/recovery/password"
    public static let sessions = "/v1/sessions"
    public static let refreshSession = "/v1/sessions/refresh"
    public static let currentSession = "/v1/sessions/current"
    /// `DELETE` signs one of the account's sessions out, by its id from `GET /v1/sessions`.
    public static func session(_ id: String) -> String { sessions + "/" + id }
    /// The length of a session's id in `GET /v1/sessions`: hex digits.
    public static let sessionIDLength = 16

    /// The largest page a client may ask for, and the default.
    public static let maxPageLimit = 500
    public static let defaultPageLimit = 200
    /// The longest a changes request may be held open (`wait=`), in seconds.
    public static let maxWaitSeconds = 30
    /// The largest request body the server reads; larger gets 413.
    public static let maxBodyBytes = 4 * 1024 * 1024

    // MARK: Trips (seed 002)

    /// `GET` the account's trips feed.
    public static let trips = "/v1/trips"
    public static let tripsPrefix = "/v1/trips/"
    /// `PUT` creates the trip, `GET` answers its snapshot.
    public static func trip(_ id: String) -> String { tripsPrefix + id }
    public static func tripOps(_ id: String) -> String { tripsPrefix + id + "/ops" }
    public static func tripChanges(_ id: String) -> String { tripsPrefix + id + "/changes" }
    /// The most ops one `POST /v1/trips/{id}/ops` may carry.
    public static let maxTripOps = 200
    /// The longest sealed value (base64 characters) one field may hold.
    public static let maxTripValueBytes = 64 * 1024
    /// The reserved field the server reads: `true` or `false`.
    public static let deletedField = "deleted"
}
