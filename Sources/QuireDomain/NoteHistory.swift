import Foundation

/// A note's texts, from the server's history and this device's, newest first.
public struct NoteHistory: Hashable, Sendable {
    public var versions: [NoteHistoryVersion]
    /// Why the server's versions are missing or short; nil when they are all there, or this
    /// device is not signed in.
    public var problem: RemoteReadProblem?

    public init(versions: [NoteHistoryVersion], problem: RemoteReadProblem? = nil) {
        self.versions = versions
        self.problem = problem
    }
}
