import Foundation

/// How far a pull has come, reported after each page.
public struct SyncProgress: Hashable, Sendable {
    /// Notes received so far in this run.
    public var received: Int
    /// The last page has been applied.
    public var finished: Bool

    public init(received: Int, finished: Bool) {
        self.received = received
        self.finished = finished
    }
}
