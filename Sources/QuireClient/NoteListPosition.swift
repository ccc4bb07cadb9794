import Foundation
import QuireDomain

/// A place in the list's order (newest change first, then by id): the row a page ended at, so the
/// next page starts right after it without counting the rows before (keyset paging).
public struct NoteListPosition: Hashable, Sendable {
    public let updatedAt: Date
    public let id: NoteID

    public init(updatedAt: Date, id: NoteID) {
        self.updatedAt = updatedAt
        self.id = id
    }

    /// Right after `summary`.
    public init(after summary: NoteSummary) {
        self.init(updatedAt: summary.updatedAt, id: summary.id)
    }
}
