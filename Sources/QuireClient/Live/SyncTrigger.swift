import Foundation

/// Why the sync controller starts a run.
public enum SyncTrigger: String, Hashable, Sendable, CaseIterable {
    /// `start()`: the app launched.
    case launch
    /// A change was saved here (debounced).
    case localChange
    /// The network (or the server) came back.
    case networkBack
    /// The app returned to the foreground.
    case foreground
    /// The periodic fallback.
    case periodic
    /// The long-poll saw a change from another device.
    case liveUpdate
    /// The backoff after a failure elapsed.
    case retry

    /// Triggers that cut a backoff short: something changed that makes success likely now.
    var overridesBackoff: Bool {
        self == .networkBack || self == .foreground || self == .launch
    }
}
