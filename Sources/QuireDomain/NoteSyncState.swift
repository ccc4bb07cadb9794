import Foundation

/// Where a note stands with the server, as the list shows it.
public enum NoteSyncState: Hashable, Sendable {
    /// The server holds exactly this text.
    case synced
    /// Saved here; `changes` changes wait to be sent.
    case pending(changes: Int)
    /// A conflict copy of this note (or this note, a copy) waits for the user to resolve it.
    case conflict
    /// The server will not take this note's change; the text stays here.
    case refused

    /// The stable word the CLI and JSON use: `synced`, `pending`, `conflict`, `refused`.
    public var label: String {
        switch self {
        case .synced: "synced"
        case .pending: "pending"
        case .conflict: "conflict"
        case .refused: "refused"
        }
    }
}
