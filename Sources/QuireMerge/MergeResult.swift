/// The result of merging two edits of one text against their common ancestor.
public enum MergeResult: Equatable, Sendable {
    /// Both sides' changes fit together; this text holds all of them.
    case clean(String)
    /// Both sides changed the same part differently: no merge is made.
    case clash
}
