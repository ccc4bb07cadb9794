import Foundation

/// A note's current state and a page of its versions, newest first.
public struct NoteHistory: Sendable, Equatable {
    /// The note's current row: its text, or its tombstone (no payload).
    public var current: StoredNote
    public var versions: [StoredVersion]
    public var hasMore: Bool
}
