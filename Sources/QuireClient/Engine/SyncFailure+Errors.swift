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
