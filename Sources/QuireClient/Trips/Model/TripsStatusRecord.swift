/// The trips' part of the sync status: the trips engine's record of its runs and the counts the
/// database keeps.
public struct TripsStatusRecord: Sendable, Hashable {
    public var run: SyncRunRecord
    /// Field changes waiting to be sent (refused ones not counted).
    public var pendingCount: Int
    /// Conflicts waiting for the person.
    public var conflictCount: Int
    /// Changes the server refused; each field says why.
    public var rejectedCount: Int
    /// Changes that failed ``ChangeRetry/stuckAfterAttempts`` sends or more; still retried.
    public var stuckCount: Int

    public init(run: SyncRunRecord, pendingCount: Int, conflictCount: Int, rejectedCount: Int, stuckCount: Int) {
        self.run = run
        self.pendingCount = pendingCount
        self.conflictCount = conflictCount
        self.rejectedCount = rejectedCount
        self.stuckCount = stuckCount
    }
}
