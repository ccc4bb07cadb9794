import Foundation

/// The engine's own record of its runs; the database stores it in its status row.
public struct SyncRunRecord: Hashable, Sendable, Codable {
    public var lastSyncedAt: Date?
    public var isSyncing: Bool
    public var lastRunFailed: Bool
    public var lastError: String?
    public var undecryptableCount: Int
    /// What kind of failure ended the last run (nil when it succeeded).
    public var lastFailureKind: SyncFailure.Kind?
    public var metrics: SyncMetrics

    public init(
        lastSyncedAt: Date? = nil, isSyncing: Bool = false, lastRunFailed: Bool = false,
        lastError: String? = nil, undecryptableCount: Int = 0,
        lastFailureKind: SyncFailure.Kind? = nil, metrics: SyncMetrics = SyncMetrics()
    ) {
        self.lastSyncedAt = lastSyncedAt
        self.isSyncing = isSyncing
        self.lastRunFailed = lastRunFailed
        self.lastError = lastError
        self.undecryptableCount = undecryptableCount
        self.lastFailureKind = lastFailureKind
        self.metrics = metrics
    }
}

/// The status row as the database publishes it: the engine's record plus counts the database keeps.
public struct SyncStatusRecord: Hashable, Sendable {
    public var run: SyncRunRecord
    public var pendingCount: Int
    public var conflictCount: Int
    /// When the oldest change still waiting was first saved.
    public var oldestPendingSince: Date?
    /// Changes the server refused: they wait for the user (see each note's `syncIssue`).
    public var refusedCount: Int
    /// Changes that failed ``ChangeRetry/stuckAfterAttempts`` sends or more; still retried.
    public var stuckCount: Int
    /// Something a run did that the user should know about (a server that had lost notes).
    public var notice: String?

    public init(
        run: SyncRunRecord, pendingCount: Int, conflictCount: Int, oldestPendingSince: Date? = nil,
        refusedCount: Int = 0, stuckCount: Int = 0, notice: String? = nil
    ) {
        self.run = run
        self.pendingCount = pendingCount
        self.conflictCount = conflictCount
        self.oldestPendingSince = oldestPendingSince
        self.refusedCount = refusedCount
        self.stuckCount = stuckCount
        self.notice = notice
    }
}
