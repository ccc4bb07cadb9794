import Foundation

/// Everything the history screen shows.
public struct NoteHistoryState: Equatable, Sendable {
    public var rows: [NoteHistoryRow] = []
    /// The selected version's whole text.
    public var preview: NoteHistoryPreview?
    /// A read is running.
    public var isLoading = false
    /// The history has been read at least once (it is read when the screen asks, not before).
    public var hasLoaded = false
    /// What to show instead of rows once read: the note has no earlier texts.
    public var empty: String?
    /// Why the server's part is missing or short, above the rows.
    public var notice: String?
    /// What the last restore did.
    public var message: String?
    /// The last read or restore that failed, for people.
    public var problem: String?

    public init() {}
}
