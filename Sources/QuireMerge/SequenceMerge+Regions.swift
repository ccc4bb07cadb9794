// MARK: - Regions for the finer merge

extension SequenceMerge {
    /// True when the finer merge may be given `region`: no side moved a line into or out of it,
    /// and each side's changes there are edits of what they replace, not rewrites (`MergeRules`).
    func mayMergeFiner(
        _ region: SettledStretch, _ localDiff: AnchoredDiff, _ serverDiff: AnchoredDiff,
        _ occurrences: inout Occurrences?
    ) -> Bool {
        if let movesAcross = rules.movesAcross,
            movesAcross(.local, region.base, region.local) || movesAcross(.server, region.base, region.server)
        {
            return false
        }
        if movesIn(region, localDiff, serverDiff, &occurrences) { return false }
        guard let isEdit = rules.isEdit else { return true }
        return region.hunks.allSatisfy { sideHunk in
            let hunk = sideHunk.hunk
            return hunk.isInsertion || hunk.isDeletion
                || isEdit(sideHunk.side, hunk.baseStart..<hunk.baseEnd, hunk.sideStart..<hunk.sideEnd)
        }
    }

    /// The smallest base range around `range` whose ends both diffs are sure of: the symbols just
    /// before and just after it are pinned on both sides, or are past the ends of the text.
    ///
    /// No hunk of either side crosses such an end (a pinned symbol is unchanged), so every group
    /// lies wholly inside the region or wholly outside it.
    func anchoredRegion(around range: Range<Int>, _ localPinned: [Bool], _ serverPinned: [Bool]) -> Range<Int> {
        var start = range.lowerBound
        while start > 0 && !(localPinned[start - 1] && serverPinned[start - 1]) { start -= 1 }
        var end = range.upperBound
        while end < base.count && !(localPinned[end] && serverPinned[end]) { end += 1 }
        return start..<end
    }

    /// True when a side moved a symbol into or out of `region` (one that may anchor, found once
    /// in the base and once in that side, and not matched here): a paragraph moved on one device
    /// and edited on the other is not the text now standing where it was, nor is a paragraph moved
    /// in beside an edit part of that edit.
    private func movesIn(
        _ region: SettledStretch, _ localDiff: AnchoredDiff, _ serverDiff: AnchoredDiff,
        _ occurrences: inout Occurrences?
    ) -> Bool {
        if occurrences == nil { occurrences = Occurrences(base: base, local: local, server: server) }
        let counts = occurrences!
        let canAnchor = rules.canAnchor
        func movable(_ symbol: Int, in side: MergeSource) -> Bool {
            (canAnchor.isEmpty || canAnchor[symbol]) && counts.once(symbol, in: .base) && counts.once(symbol, in: side)
        }
        for (side, diff, range) in [
            (MergeSource.local, localDiff, region.local), (.server, serverDiff, region.server),
        ] {
            let symbols = side == .local ? local : server
            for position in region.base where diff.removed[position] && movable(base[position], in: side) {
                return true
            }
            for position in range where diff.added[position] && movable(symbols[position], in: side) {
                return true
            }
        }
        return false
    }

    /// True when both diffs are sure where `group` goes: for each side, the nearest symbol that
    /// may anchor (a word) on either side of the group is pinned in its diff or changed by it (a
    /// symbol it changed belongs to a group of its own), and, if the side did not touch the group,
    /// every such symbol the group covers is pinned and the side added no line break between
    /// those words. Spaces and punctuation between do not count otherwise: they are everywhere,
    /// and pair wherever the words around them do, unless a new line came between. A group only
    /// one side touched needs this of the other side only: the changing side's own weak matches
    /// carry nobody else's text.
    func isSurelyPlaced(_ group: HunkGroup, _ localDiff: AnchoredDiff, _ serverDiff: AnchoredDiff) -> Bool {
        let mayAnchor = { (position: Int) in self.rules.canAnchor.isEmpty || self.rules.canAnchor[self.base[position]] }
        let bothTouch = group.touches(.local) && group.touches(.server)
        for (side, diff) in [(MergeSource.local, localDiff), (.server, serverDiff)] {
            if group.touches(side) {
                guard bothTouch else { continue }
            } else if (group.start..<group.end).contains(where: { mayAnchor($0) && !diff.pinned[$0] }) {
                return false
            }
            let before = (0..<group.start).last(where: mayAnchor)
            let after = (group.end..<base.count).first(where: mayAnchor)
            for neighbour in [before, after].compactMap({ $0 })
            where !diff.pinned[neighbour] && !diff.removed[neighbour] {
                return false
            }
            // Where spaces or marks between those words and a group the side did not touch are
            // matched only weakly, the side must not have started a new line there: they would
            // pair across it.
            let near = (before.map { $0 + 1 } ?? 0)..<(after ?? base.count)
            if !group.touches(side),
                near.contains(where: {
                    !(group.start..<group.end).contains($0) && !diff.removed[$0] && !diff.pinned[$0]
                }),
                addsLineBreak(diff, side, (before ?? 0)...(after ?? base.count))
            {
                return false
            }
        }
        return true
    }

    /// True when a hunk of `diff` that overlaps or touches the base positions `positions` adds a
    /// line break.
    private func addsLineBreak(_ diff: AnchoredDiff, _ side: MergeSource, _ positions: ClosedRange<Int>) -> Bool {
        guard let breaksLine = rules.breaksLine else { return false }
        let symbols = symbols(of: side)
        return diff.hunks.contains { hunk in
            hunk.baseStart <= positions.upperBound && positions.lowerBound <= hunk.baseEnd
                && symbols[hunk.sideStart..<hunk.sideEnd].contains(where: breaksLine)
        }
    }

}

/// One group's ranges in the base and in each side.
struct PlacedGroup {
    let base: Range<Int>
    let local: Range<Int>
    let server: Range<Int>
}

/// A stretch of base settled at this level (`pieces`), or a region left to the finer merge (nil),
/// with the first and last groups inside it: between groups each side is the base unchanged, so
/// they place the stretch in each side.
struct SettledStretch {
    let base: Range<Int>
    let pieces: [MergePiece]?
    let first: PlacedGroup
    let last: PlacedGroup
    /// The hunks of the groups inside.
    let hunks: [SideHunk]

    var local: Range<Int> { placed(first.local, last.local) }

    var server: Range<Int> { placed(first.server, last.server) }

    /// A side's range, from the first group's side range and the last one's.
    private func placed(_ firstRange: Range<Int>, _ lastRange: Range<Int>) -> Range<Int> {
        let start = firstRange.lowerBound - (first.base.lowerBound - base.lowerBound)
        let end = lastRange.upperBound + (base.upperBound - last.base.upperBound)
        return start..<end
    }
}

extension Range where Bound == Int {
    /// True when the two ranges share a symbol, or one is a point strictly inside the other: a
    /// stretch that only touches a region (an insertion at its edge) stays outside it.
    func overlapsInside(_ other: Range<Int>) -> Bool {
        if isEmpty { return other.lowerBound < lowerBound && lowerBound < other.upperBound }
        if other.isEmpty { return lowerBound < other.lowerBound && other.lowerBound < upperBound }
        return lowerBound < other.upperBound && other.lowerBound < upperBound
    }
}

/// Which symbols appear exactly once in each input.
struct Occurrences {
    private let counts: [MergeSource: [UInt8]]

    init(base: [Int], local: [Int], server: [Int]) {
        let symbolCount = max(base.max() ?? -1, local.max() ?? -1, server.max() ?? -1) + 1
        var counts: [MergeSource: [UInt8]] = [:]
        for (source, symbols) in [(MergeSource.base, base), (.local, local), (.server, server)] {
            var count = [UInt8](repeating: 0, count: symbolCount)
            for symbol in symbols where count[symbol] < 2 { count[symbol] += 1 }
            counts[source] = count
        }
        self.counts = counts
    }

    func once(_ symbol: Int, in source: MergeSource) -> Bool { counts[source]![symbol] == 1 }
}
