import Foundation

/// What the device knows about syncing, as one value the status label and `quire status` show.
public struct SyncStatus: Equatable, Sendable, Codable {
    /// nil: this device has never finished a sync.
    public var lastSyncedAt: Date?
    public var isSyncing: Bool
    public var lastRunFailed: Bool
    /// Why the last run failed, for people (no note text).
    public var lastError: String?
    /// Changes saved here that the server has not acknowledged: notes' changes and trips' field
    /// changes together.
    public var pendingCount: Int
    /// Of ``pendingCount``, the trips' field changes.
    public var tripPendingCount: Int
    /// Trip fields (and deleted items) where this device's change met another's, waiting for the
    /// person's choice.
    public var tripConflictCount: Int
    /// Trip field changes the server refused (each field says why; its next edit sends it again).
    public var tripRejectedCount: Int
    /// Conflict copies waiting for the user to resolve them.
    public var conflictCount: Int
    /// Notes the server sent that could not be decrypted (skipped, never applied).
    public var undecryptableCount: Int
    /// The last run could not reach the server.
    public var isOffline: Bool
    /// The server no longer accepts this device's session: sign in again. Notes stay.
    public var isSignedOut: Bool
    /// When the oldest change still waiting to sync was saved.
    public var oldestPendingSince: Date?
    /// Changes the server refused: each note says why; its next edit sends it again.
    public var refusedCount: Int
    /// Changes that keep failing to send (still retried, shown with their last error).
    public var stuckCount: Int
    /// Something a sync did that the user should know (the server had lost notes, say).
    public var notice: String?

    public init(
        lastSyncedAt: Date? = nil, isSyncing: Bool = false, lastRunFailed: Bool = false,
        lastError: String? = nil, pendingCount: Int = 0, conflictCount: Int = 0,
        undecryptableCount: Int = 0, isOffline: Bool = false, isSignedOut: Bool = false,
        oldestPendingSince: Date? = nil, refusedCount: Int = 0, stuckCount: Int = 0,
        notice: String? = nil, tripPendingCount: Int = 0, tripConflictCount: Int = 0,
        tripRejectedCount: Int = 0
    ) {
        self.tripPendingCount = tripPendingCount
        self.tripConflictCount = tripConflictCount
        self.tripRejectedCount = tripRejectedCount
        self.refusedCount = refusedCount
        self.stuckCount = stuckCount
        self.notice = notice
        self.lastSyncedAt = lastSyncedAt
        self.isSyncing = isSyncing
        self.lastRunFailed = lastRunFailed
        self.lastError = lastError
        self.pendingCount = pendingCount
        self.conflictCount = conflictCount
        self.undecryptableCount = undecryptableCount
        self.isOffline = isOffline
        self.isSignedOut = isSignedOut
        self.oldestPendingSince = oldestPendingSince
    }
}
