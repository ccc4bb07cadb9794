import Foundation
import QuireDomain

/// A place in the list's order (newest change first, then by id; or by title, then newest first):
/// the row a page ended at, so the next page starts right after it without counting the rows
/// before (keyset paging). Taken from the row itself, so the row may change or go meanwhile.
public struct NoteListPosition: Hashable, Sendable {
    public let updatedAt: Date
    public let id: NoteID
    /// The row's title, for the order by title (its ``QuireDomain/TitleSortKey``).
    public let title: String

    public init(updatedAt: Date, id: NoteID, title: String = "") {
        self.updatedAt = updatedAt
        self.id = id
        self.title = title
    }

    /// Right after `summary`.
    public init(after summary: NoteSummary) {
        self.init(updatedAt: summary.updatedAt, id: summary.id, title: summary.title)
    }
}
