import Foundation
import QuireSQLite

extension SyncFailure {
    /// What a run's error means for the user: signed out, unreachable, transient (try again
    /// later), or the local database (storage).
    static func from(_ error: Error) -> SyncFailure {
        switch error {
        case let failure as SyncFailure:
            return failure
        case let api as NotesAPIError:
            switch api.kind {
            case .unauthorized:
                return SyncFailure(kind: .signedOut, message: "Signed out: sign in again to sync.")
            case .unreachable:
                return SyncFailure(kind: .unreachable, message: api.message)
            default:
                return SyncFailure(kind: .transient, message: api.description, retryAfter: api.retryAfter)
            }
        case is CancellationError:
            return SyncFailure(kind: .transient, message: "Sync was cancelled.")
        case let database as NotesDatabaseError:
            return SyncFailure(kind: .storage, message: "Local database: \(database.message)")
        case let database as TripsDatabaseError:
            return SyncFailure(kind: .storage, message: "Local trips database: \(database.message)")
        case let sqlite as SQLiteError:
            return SyncFailure(kind: .storage, message: "Local database: \(sqlite.message)")
        default:
            return SyncFailure(kind: .storage, message: "\(error)")
        }
    }
}

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

extension SyncReport {
    /// Adds `other`'s counts to this report; the first failure stays.
    mutating func absorb(_ other: SyncReport) {
        pushed += other.pushed
        merged += other.merged
        conflictCopies += other.conflictCopies
        editsBeatDeletes += other.editsBeatDeletes
        fieldConflicts += other.fieldConflicts
        refused += other.refused
        received += other.received
        undecryptable += other.undecryptable
        deferred += other.deferred
        reuploaded += other.reuploaded
        fullResync = fullResync || other.fullResync
        failure = failure ?? other.failure
    }
}
