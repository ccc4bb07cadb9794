import QuireDomain

/// What signing out would lose (seed 000: "3 notes haven't synced and will be lost"). Signing out
/// erases this device's data, so every change the server does not hold is lost with it.
public enum SignOutWarning {
    /// The confirmation's title and its button.
    public static let title = "Sign out and erase this device's notes?"
    public static let confirm = "Sign out and erase"

    /// The warning for `status`; nil when the server holds everything (sign out without asking).
    ///
    /// Counts changes, not notes: a note edited twice offline may wait as one change or two, and a
    /// trip's changes are per field. Changes the server refused count too: it never took them.
    public static func text(for status: SyncStatus) -> String? {
        let unsynced = status.pendingCount + status.refusedCount + status.tripRejectedCount
        switch unsynced {
        case 0: return nil
        case 1: return "1 change hasn't synced and will be lost."
        default: return "\(unsynced) changes haven't synced and will be lost."
        }
    }
}
