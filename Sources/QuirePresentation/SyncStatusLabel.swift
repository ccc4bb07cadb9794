import QuireDomain

/// The one-line sync label of seed 004 (Synced, Syncing…, Offline, N conflicts), shared by the
/// app's status bar and `quire watch`.
public enum SyncStatusLabel {
    /// The most useful thing to say right now, in order: what needs the user (signed out,
    /// conflicts), what is happening (syncing), what went wrong (offline, a failure), what waits.
    public static func text(for status: SyncStatus, syncConfigured: Bool) -> String {
        guard syncConfigured else { return "On this device only" }
        if status.isSignedOut { return "Signed out" }
        if status.conflictCount > 0 {
            return status.conflictCount == 1 ? "1 conflict" : "\(status.conflictCount) conflicts"
        }
        if status.isSyncing { return "Syncing…" }
        if status.isOffline { return "Offline" }
        if status.lastRunFailed { return "Couldn't sync" }
        if status.pendingCount > 0 { return "\(status.pendingCount) not synced" }
        return status.lastSyncedAt == nil ? "Not synced yet" : "Synced"
    }
}
