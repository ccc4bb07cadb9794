import Foundation

/// How long a session (one signed-in device) lasts: it ends when its refresh token has not been
/// used for ``idle``, or ``absolute`` after it began, whichever comes first. An ended session's
/// tokens are refused as unknown ones (401), so its device signs in again; the background work
/// deletes it.
///
/// A session's last use is its last sign-in or refresh: a device in use refreshes every access
/// token lifetime (15 minutes by default), so the time is right to within that.
public struct SessionLifetime: Sendable, Equatable {
    /// Default 60 days: a device put away for two months signs in again.
    public var idle: TimeInterval = 60 * 86_400
    /// Default 365 days: every device signs in again at least once a year.
    public var absolute: TimeInterval = 365 * 86_400

    public init(idle: TimeInterval = 60 * 86_400, absolute: TimeInterval = 365 * 86_400) {
        self.idle = idle
        self.absolute = absolute
    }

    /// Which sessions have ended at `now`.
    public func expiry(at now: Date) -> SessionExpiry {
        SessionExpiry(
            lastUsedBefore: now.addingTimeInterval(-idle), startedBefore: now.addingTimeInterval(-absolute))
    }
}
