import Foundation

/// How the user settles a conflict copy against its original, by side (not by device: on the
/// device that did not make the copy, the copy is the other device's text).
public enum ConflictChoice: String, Hashable, Sendable, CaseIterable {
    /// The original takes the copy's text; the copy is deleted.
    case mine
    /// The original keeps its text; the copy is deleted.
    case theirs
    /// Both stay: the copy becomes an ordinary note.
    case both
}
