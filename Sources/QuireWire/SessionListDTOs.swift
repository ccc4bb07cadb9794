import Foundation

/// One signed-in device of the account, as `GET /v1/sessions` lists it.
public struct SessionInfoDTO: Codable, Sendable, Equatable {
    /// The session's id for `DELETE /v1/sessions/{id}`: 16 lowercase hex digits, stable for the
    /// session's life, telling nothing about other accounts' sessions.
    public var id: String
    /// The name the device gave at sign-in (`deviceName`).
    public var deviceName: String
    /// Its sign-in.
    public var createdAt: Date
    /// Its last sign-in or token refresh: a device in use refreshes every access-token lifetime.
    public var lastUsedAt: Date
    /// Whether it is the session of the request's own token.
    public var current: Bool

    public init(id: String, deviceName: String, createdAt: Date, lastUsedAt: Date, current: Bool) {
        self.id = id
        self.deviceName = deviceName
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.current = current
    }
}

/// `GET /v1/sessions` (bearer auth) → 200: the account's live sessions, oldest first.
/// `DELETE /v1/sessions/{id}` → 204 signs one out: its tokens stop working at once.
public struct SessionListDTO: Codable, Sendable, Equatable {
    public var sessions: [SessionInfoDTO]

    public init(sessions: [SessionInfoDTO]) {
        self.sessions = sessions
    }
}
