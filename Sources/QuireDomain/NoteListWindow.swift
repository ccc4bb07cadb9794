import Foundation

/// The start of the list: the first summaries, newest first, and whether more notes follow them.
///
/// What a list screen shows of 100,000 notes is a screenful; it reads that many by an index and
/// asks for more as the person scrolls ("a lazy list", seed 000: the list reads only what rows
/// show). `hasMore` is what tells it there is more to ask for.
public struct NoteListWindow: Hashable, Sendable {
    /// The newest live notes, at most as many as asked for, in the list's order.
    public let summaries: [NoteSummary]
    /// More live notes follow the last of `summaries`.
    public let hasMore: Bool

    public init(summaries: [NoteSummary], hasMore: Bool) {
        self.summaries = summaries
        self.hasMore = hasMore
    }

    /// The first `count` of a whole list.
    public init(first count: Int, of list: [NoteSummary]) {
        self.init(summaries: Array(list.prefix(count)), hasMore: list.count > count)
    }
}
