import Foundation

/// A note as a list row shows it: the title and the start of the body, never the whole body, so a
/// list of 10,000 notes reads kilobytes, not megabytes ("the list reads only what rows show").
public struct NoteSummary: Identifiable, Hashable, Sendable {
    public let id: NoteID
    public let title: String
    /// The start of the body (at most ``NoteSummary/previewLength`` characters), leading blank
    /// lines and spaces skipped.
    public let preview: String
    public let updatedAt: Date
    public let sync: NoteSyncState
    public let conflictOf: NoteID?
    /// Why the note is not reaching the server (see ``Note/syncIssue``); nil when nothing is wrong.
    public let syncIssue: String?

    /// How many characters of the body a summary carries.
    public static let previewLength = 120

    public init(
        id: NoteID, title: String, preview: String, updatedAt: Date, sync: NoteSyncState,
        conflictOf: NoteID? = nil, syncIssue: String? = nil
    ) {
        self.syncIssue = syncIssue
        self.id = id
        self.title = title
        self.preview = preview
        self.updatedAt = updatedAt
        self.sync = sync
        self.conflictOf = conflictOf
    }

    /// The summary of a full note.
    public init(_ note: Note) {
        self.init(
            id: note.id, title: note.title,
            preview: String(
                note.body.drop(while: { $0 == " " || $0 == "\t" || $0.isNewline }).prefix(Self.previewLength)),
            updatedAt: note.updatedAt, sync: note.sync, conflictOf: note.conflictOf,
            syncIssue: note.syncIssue)
    }
}
