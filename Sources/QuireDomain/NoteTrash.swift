import Foundation

/// The deleted notes that can be brought back: the server's trash and this device's.
public struct NoteTrash: Hashable, Sendable {
    public var notes: [TrashedNote]
    /// Why the server's trash is missing or short; nil when it is all there, or this device is
    /// not signed in.
    public var problem: RemoteReadProblem?

    public init(notes: [TrashedNote], problem: RemoteReadProblem? = nil) {
        self.notes = notes
        self.problem = problem
    }
}
