import Foundation

/// Why the list has no rows. "No notes" is said only when it is known to be true (promise 5).
public enum EmptyState: Equatable, Sendable {
    /// The account really has no notes: a sync has succeeded, or this device does not sync.
    case noNotes
    /// Nothing here yet and the first sync has not finished: "Loading your notes…".
    case firstSyncRunning
    /// Nothing here yet and the first sync failed; the notes may well exist on the server.
    case firstSyncFailed(message: String)

    /// The words the screen shows.
    public var headline: String {
        switch self {
        case .noNotes: "No notes yet"
        case .firstSyncRunning: "Loading your notes…"
        case .firstSyncFailed: "Couldn't load your notes yet"
        }
    }
}
