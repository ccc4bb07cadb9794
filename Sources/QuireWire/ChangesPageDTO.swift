import Foundation

/// `GET /v1/notes/changes` → one page of the account's changes feed, in the server's order.
public struct ChangesPageDTO: Codable, Sendable, Equatable {
    public var changes: [NoteChangeDTO]
    /// Opaque; the client stores it and sends it back as `since`, never reads it.
    public var nextCursor: String
    /// More changes are waiting: fetch again with `nextCursor` at once.
    public var hasMore: Bool

    public init(changes: [NoteChangeDTO], nextCursor: String, hasMore: Bool) {
        self.changes = changes
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }
}
