import Foundation

/// The paths, headers and limits of API v1, named once for client and server.
public enum WireRoutes {
    public static let changes = "/v1/notes/changes"
    public static let notesPrefix = "/v1/notes/"
    public static let idempotencyKeyHeader = "Idempotency-Key"

    public static func note(_ id: String) -> String { notesPrefix + id }

    /// The largest page a client may ask for, and the default.
    public static let maxPageLimit = 500
    public static let defaultPageLimit = 200
    /// The longest a changes request may be held open (`wait=`), in seconds.
    public static let maxWaitSeconds = 30
    /// The largest request body the server reads; larger gets 413.
    public static let maxBodyBytes = 4 * 1024 * 1024
}
