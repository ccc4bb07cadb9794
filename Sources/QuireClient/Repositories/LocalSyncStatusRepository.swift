import Foundation
import QuireDomain

/// The sync status for screens (seed 000 card 4): the notes' status row and, when the device has
/// trips, the trips' status, as one `SyncStatus`.
public final class LocalSyncStatusRepository: SyncStatusRepository {
    private let records: any SyncStatusRecords
    private let trips: TripsDatabase?
    private let runGoing: (@Sendable () -> Bool)?

    /// - Parameter trips: the device's trips, whose waiting changes, conflicts and runs count too.
    /// - Parameter runGoing: whether a sync run is going now (the device's sync lock is held);
    ///   when it says no, a record still saying "syncing" is a run that was cut short (its
    ///   process killed, the disk full before it could record its end), shown as not finished.
    public init(
        records: any SyncStatusRecords, trips: TripsDatabase? = nil, runGoing: (@Sendable () -> Bool)? = nil
    ) {
        self.records = records
        self.trips = trips
        self.runGoing = runGoing
    }

    /// What a run that was cut short says, until the next run.
    public static let interruptedRun =
        "The last sync did not finish (it was stopped, or its process ended); the next sync picks up where it stopped."

    /// `status` with a "syncing" that no run holds turned into a run that did not finish.
    static func checked(_ status: SyncStatus, runGoing: (@Sendable () -> Bool)?) -> SyncStatus {
        guard status.isSyncing, let runGoing, !runGoing() else { return status }
        var status = status
        status.isSyncing = false
        status.lastRunFailed = true
        status.lastError = interruptedRun
        return status
    }

    /// Replays the current status, then each change of either part. Finishes when the caller's
    /// task is cancelled.
    public func status() -> AsyncStream<SyncStatus> {
        let rows = records.statusRow()
        let tripRows = trips?.statusRow()
        let (stream, continuation) = AsyncStream.makeStream(
            of: SyncStatus.self, bufferingPolicy: .bufferingNewest(1))
        let latest = LatestStatus(tripsExpected: tripRows != nil, runGoing: runGoing)
        let notesTask = Task {
            for await record in rows {
                if let status = latest.notes(record) { continuation.yield(status) }
            }
            continuation.finish()
        }
        let tripsTask = Task {
            guard let tripRows else { return }
            for await record in tripRows {
                if let status = latest.trips(record) { continuation.yield(status) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in
            notesTask.cancel()
            tripsTask.cancel()
        }
        return stream
    }

    /// One status from the notes' row and the trips' record (nil: the device has no trips part).
    /// Counts add up; the run is syncing or failed when either part's last run is; "last synced"
    /// is the older of the two once the trips have run at all.
    package static func status(_ record: SyncStatusRecord, trips: TripsStatusRecord? = nil) -> SyncStatus {
        var status = SyncStatus(
            lastSyncedAt: record.run.lastSyncedAt, isSyncing: record.run.isSyncing,
            lastRunFailed: record.run.lastRunFailed, lastError: record.run.lastError,
            pendingCount: record.pendingCount, conflictCount: record.conflictCount,
            undecryptableCount: record.run.undecryptableCount,
            isOffline: record.run.lastRunFailed && record.run.lastFailureKind == .unreachable,
            isSignedOut: record.run.lastRunFailed && record.run.lastFailureKind == .signedOut,
            oldestPendingSince: record.oldestPendingSince, refusedCount: record.refusedCount,
            stuckCount: record.stuckCount, notice: record.notice)
        guard let trips else { return status }
        status.pendingCount += trips.pendingCount
        status.tripPendingCount = trips.pendingCount
        status.tripConflictCount = trips.conflictCount
        status.tripRejectedCount = trips.rejectedCount
        status.undecryptableCount += trips.run.undecryptableCount
        status.isSyncing = status.isSyncing || trips.run.isSyncing
        guard trips.run.metrics.runs > 0 else { return status }
        if trips.run.lastRunFailed, !status.lastRunFailed {
            status.lastRunFailed = true
            status.lastError = trips.run.lastError
            status.isOffline = trips.run.lastFailureKind == .unreachable
            status.isSignedOut = trips.run.lastFailureKind == .signedOut
        }
        if let notes = status.lastSyncedAt, let tripsSynced = trips.run.lastSyncedAt {
            status.lastSyncedAt = min(notes, tripsSynced)
        } else {
            status.lastSyncedAt = nil
        }
        return status
    }

    /// The newest record of each part; a status once both have arrived.
    ///
    /// `@unchecked Sendable`: its fields are only touched under `lock`.
    private final class LatestStatus: @unchecked Sendable {
        private let lock = NSLock()
        private var notesRecord: SyncStatusRecord?
        private var tripsRecord: TripsStatusRecord?
        private let tripsExpected: Bool
        private let runGoing: (@Sendable () -> Bool)?

        init(tripsExpected: Bool, runGoing: (@Sendable () -> Bool)?) {
            self.tripsExpected = tripsExpected
            self.runGoing = runGoing
        }

        func notes(_ record: SyncStatusRecord) -> SyncStatus? {
            lock.withLock {
                notesRecord = record
                return current
            }
        }

        func trips(_ record: TripsStatusRecord) -> SyncStatus? {
            lock.withLock {
                tripsRecord = record
                return current
            }
        }

        /// Under `lock`.
        private var current: SyncStatus? {
            guard let notesRecord else { return nil }
            if tripsExpected && tripsRecord == nil { return nil }
            return LocalSyncStatusRepository.checked(
                LocalSyncStatusRepository.status(notesRecord, trips: tripsRecord), runGoing: runGoing)
        }
    }
}
