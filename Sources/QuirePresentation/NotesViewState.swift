import Foundation
import QuireDomain

/// Everything the notes screen shows, as one value (seed 000 card 2).
///
/// Small states that coexist rather than one big enum: rows, "syncing" and "the last sync failed"
/// can all be true at once, and a failed sync never empties `rows` (promise 5).
public struct NotesViewState: Equatable, Sendable {
    /// The live notes, newest first, as the list shows them.
    public let rows: [NoteRow]
    /// More notes follow the last row: the screen asks for them with `showMore()` as it scrolls.
    public let hasMoreRows: Bool
    /// What to show instead of rows; nil when there are rows, and before the database has
    /// answered at all (a moment at launch, too short to say anything honest).
    public let empty: EmptyState?
    /// A sync is running now.
    public let isSyncing: Bool
    /// "Couldn't sync · last synced 10:42" (or "Couldn't sync yet") when the last run failed.
    public let syncProblem: String?
    /// The note open in the editor, or nil.
    public let editor: EditorState?
    /// Changes saved here that the server has not acknowledged.
    public let pendingCount: Int
    /// Conflict copies waiting for the user.
    public let conflictCount: Int
    /// The one-line status label (seed 004): "Synced", "Syncing…", "2 conflicts", …
    public let statusLabel: String
    /// The last save or delete that failed, for people; cleared by the next write that succeeds.
    public let writeFailure: String?
    /// Reading from the database failed, for people: "Couldn't read your notes; trying again"
    /// while the list's stream is down (it is subscribed to again after a short wait), the same
    /// for the sync status, or "Couldn't open the note: …". The rows, status and draft stay as they
    /// were. Cleared by the next read that succeeds.
    public let readProblem: String?
    /// The note open in the editor is a conflict copy, or has one (synced or not yet): the editor
    /// offers to settle it.
    public let openNoteInConflict: Bool

    public init(
        rows: [NoteRow] = [], hasMoreRows: Bool = false, empty: EmptyState? = nil, isSyncing: Bool = false,
        syncProblem: String? = nil, editor: EditorState? = nil, pendingCount: Int = 0,
        conflictCount: Int = 0, statusLabel: String = "", writeFailure: String? = nil,
        readProblem: String? = nil, openNoteInConflict: Bool = false
    ) {
        self.rows = rows
        self.hasMoreRows = hasMoreRows
        self.empty = empty
        self.isSyncing = isSyncing
        self.syncProblem = syncProblem
        self.editor = editor
        self.pendingCount = pendingCount
        self.conflictCount = conflictCount
        self.statusLabel = statusLabel
        self.writeFailure = writeFailure
        self.readProblem = readProblem
        self.openNoteInConflict = openNoteInConflict
    }

}
