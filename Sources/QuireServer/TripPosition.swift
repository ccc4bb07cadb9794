/// A point in one trip's history: a trip revision, and the server-wide feed position of the
/// change that wrote it (whose mark tells a history a restore forgot from the current one).
public struct TripPosition: Sendable, Hashable {
    /// Every field written at a larger revision comes after this point.
    public var revision: Int
    /// The position (`seq` and its stored mark) of the change that made `revision`; sequence 0
    /// with mark 0 for a trip's beginning.
    public var feed: FeedPosition

    public init(revision: Int, feed: FeedPosition) {
        self.revision = revision
        self.feed = feed
    }
}
