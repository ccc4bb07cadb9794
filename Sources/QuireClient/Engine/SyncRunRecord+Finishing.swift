import Foundation

extension SyncRunRecord {
    /// Records how a run ended: its time on success, its failure otherwise (a run stopped on
    /// purpose, `failure` nil and not succeeded, changes neither), and its counters.
    mutating func finish(_ report: SyncReport, stoppedOnPurpose: Bool, at date: Date) {
        if let failure = report.failure, !stoppedOnPurpose {
            lastRunFailed = true
            lastError = failure.message
            lastFailureKind = failure.kind
        } else if report.failure == nil {
            lastSyncedAt = date
            lastRunFailed = false
            lastError = nil
            lastFailureKind = nil
        }
        metrics.record(report)
        if report.fullResync { undecryptableCount = 0 }
        undecryptableCount += report.undecryptable
        isSyncing = false
    }
}
