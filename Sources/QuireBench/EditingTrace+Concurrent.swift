import Foundation

extension EditingTrace {
    /// Two devices' offline edits of one text, and what one person typing both runs produced.
    struct ConcurrentEdits {
        var base: String
        var local: String
        var server: String
        /// The trace's own text after both runs, one after the other: what a correct merge of
        /// disjoint edits must equal.
        var sequential: String
    }

    /// Two runs of `count` consecutive keystrokes after the text at patch `start` (`base`, the
    /// text after the first `start` patches, as ``text(afterPatches:)`` gives it), as two devices'
    /// concurrent edits: `local` applies the first run to the base; `server` applies the second
    /// run to the base, its positions moved back across the first run's changes. Returns nil when
    /// the second run touches the stretch of text the first run changed (or sits right against
    /// it), since then it cannot be replayed without the first run.
    func disjointEdits(base: [Unicode.Scalar], at start: Int, count: Int) -> ConcurrentEdits? {
        guard start >= 0, start + 2 * count <= patches.count else { return nil }
        var local = ScalarGapBuffer(base)
        for patch in patches[start..<(start + count)] { local.apply(patch) }
        let localScalars = local.scalars

        // The first run changed base[prefix ..< base.count - suffix] into a middle of
        // `middleLength` scalars; everything around it is the base unchanged.
        let prefix = zip(base, localScalars).prefix { $0 == $1 }.count
        let room = min(base.count, localScalars.count) - prefix
        let suffix = zip(base.reversed(), localScalars.reversed()).prefix(room).prefix { $0 == $1 }.count
        let middleLength = localScalars.count - prefix - suffix
        let shift = localScalars.count - base.count

        var middleStart = prefix
        var server = ScalarGapBuffer(base)
        var sequential = local
        for patch in patches[(start + count)..<(start + 2 * count)] {
            sequential.apply(patch)
            if patch.position + patch.deleteCount < middleStart {
                server.apply(patch)
                middleStart += patch.insert.count - patch.deleteCount
            } else if patch.position > middleStart + middleLength {
                var moved = patch
                moved.position -= shift
                server.apply(moved)
            } else {
                return nil
            }
        }
        return ConcurrentEdits(
            base: Self.string(base), local: local.string, server: server.string,
            sequential: sequential.string)
    }
}
