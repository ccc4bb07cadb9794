import Foundation

/// A note as every screen sees it. Only the database decides `sync`; screens never set it.
public struct Note: Identifiable, Hashable, Sendable {
    /// Made on the device, so it exists offline.
    public let id: NoteID
    public let title: String
    public let body: String
    public let updatedAt: Date
    public let sync: NoteSyncState
    /// For a conflict copy: the note it was split from.
    public let conflictOf: NoteID?
    /// Why this note is not reaching the server, for the user: the server's refusal (too large,
    /// say), or the last error of a change that keeps failing. nil when nothing is wrong.
    public let syncIssue: String?

    public init(
        id: NoteID, title: String, body: String, updatedAt: Date, sync: NoteSyncState,
        conflictOf: NoteID? = nil, syncIssue: String? = nil
    ) {
        self.syncIssue = syncIssue
        self.id = id
        self.title = title
        self.body = body
        self.updatedAt = updatedAt
        self.sync = sync
        self.conflictOf = conflictOf
    }

    public var text: NoteText { NoteText(title: title, body: body) }
}
