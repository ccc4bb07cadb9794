import Foundation

/// `GET /v1/notes/changes` → one page of the account's changes feed, in the server's order.
public struct ChangesPageDTO: Codable, Sendable, Equatable {
    public var changes: [NoteChangeDTO]
    /// Opaque; the client stores it and sends it back as `since`, never reads it.
    public var nextCursor: String
    /// More changes are waiting: fetch again with `nextCursor` at once.
    public var hasMore: Bool
    /// About how many changes are still to come after this page (0 on the last one), so a client
    /// can show a total; an estimate (others may write meanwhile). Absent from older servers.
    public var remaining: Int?

    public init(changes: [NoteChangeDTO], nextCursor: String, hasMore: Bool, remaining: Int? = nil) {
        self.changes = changes
        self.nextCursor = nextCursor
        self.hasMore = hasMore
        self.remaining = remaining
    }
}
