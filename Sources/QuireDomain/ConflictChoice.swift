import Foundation

/// How the user settles a conflict copy against its original.
public enum ConflictChoice: String, Hashable, Sendable, CaseIterable {
    /// The original takes the copy's text (this device's version); the copy is deleted.
    case mine
    /// The original keeps its text (the other device's version); the copy is deleted.
    case theirs
    /// Both stay: the copy becomes an ordinary note.
    case both
}
