import Foundation
import QuireDomain

/// A live note that matches a search, best first, with the matching words marked.
public struct NoteSearchHit: Hashable, Sendable {
    public var id: NoteID
    public var title: String
    /// The title, matching words between the highlight marks.
    public var highlightedTitle: String
    /// A few words of the body around the best match, marks around matching words, `…` where cut.
    public var snippet: String
    /// The original's id when this note is a conflict copy.
    public var conflictOf: NoteID?
    public var updatedAt: Date
    /// bm25, lower is better (titles weigh ten times the body).
    public var rank: Double

    public init(
        id: NoteID, title: String, highlightedTitle: String, snippet: String, conflictOf: NoteID?,
        updatedAt: Date, rank: Double
    ) {
        self.id = id
        self.title = title
        self.highlightedTitle = highlightedTitle
        self.snippet = snippet
        self.conflictOf = conflictOf
        self.updatedAt = updatedAt
        self.rank = rank
    }
}
