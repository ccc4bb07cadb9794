import Foundation

/// The result of merging two edits of one text against their common ancestor.
public enum MergeResult: Equatable, Sendable {
    /// Both sides' changes fit together; this text holds all of them.
    case clean(String)
    /// Both sides changed the same part differently: no merge is made.
    case clash
}

/// Three-way merge of texts: pure, deterministic, no I/O.
public enum ThreeWayMerge {
    /// Merges `local` and `server`, both edited from `base`.
    ///
    /// Conservative: merges only when one side is unchanged or both made the same edit.
    public static func merge(base: String, local: String, server: String) -> MergeResult {
        if local == server { return .clean(local) }
        if local == base { return .clean(server) }
        if server == base { return .clean(local) }
        return .clash
    }
}
