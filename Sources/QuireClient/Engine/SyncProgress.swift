import Foundation

/// How far a sync has come: reported after each request that sent notes and after each page of
/// the feed.
public struct SyncProgress: Hashable, Sendable {
    public enum Phase: String, Hashable, Sendable {
        /// Pushing this device's pending changes.
        case sending
        /// Pulling the feed.
        case receiving
    }

    public var phase: Phase
    /// Notes sent, or received, so far in this run.
    public var done: Int
    /// `done` plus what is known to be left: the changes pending when the push began, or what the
    /// server said remains after the page; nil when the server did not say.
    public var total: Int?
    /// Nothing is left in this phase.
    public var finished: Bool

    public init(phase: Phase, done: Int, total: Int?, finished: Bool) {
        self.phase = phase
        self.done = done
        self.total = total
        self.finished = finished
    }
}
