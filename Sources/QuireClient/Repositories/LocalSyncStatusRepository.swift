import Foundation
import QuireDomain

/// The sync status for screens (seed 000 card 4): the status row the engine writes, as
/// `SyncStatus`.
public final class LocalSyncStatusRepository: SyncStatusRepository {
    private let records: any SyncStatusRecords

    public init(records: any SyncStatusRecords) {
        self.records = records
    }

    /// Replays the current status, then each change. Finishes when the caller's task is cancelled.
    public func status() -> AsyncStream<SyncStatus> {
        let rows = records.statusRow()
        let (stream, continuation) = AsyncStream.makeStream(
            of: SyncStatus.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            for await record in rows {
                continuation.yield(Self.status(record))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    static func status(_ record: SyncStatusRecord) -> SyncStatus {
        SyncStatus(
            lastSyncedAt: record.run.lastSyncedAt, isSyncing: record.run.isSyncing,
            lastRunFailed: record.run.lastRunFailed, lastError: record.run.lastError,
            pendingCount: record.pendingCount, conflictCount: record.conflictCount,
            undecryptableCount: record.run.undecryptableCount,
            isOffline: record.run.lastRunFailed && record.run.lastFailureKind == .unreachable,
            isSignedOut: record.run.lastRunFailed && record.run.lastFailureKind == .signedOut,
            oldestPendingSince: record.oldestPendingSince, refusedCount: record.refusedCount,
            stuckCount: record.stuckCount, notice: record.notice)
    }
}
