/// A diff anchored on unique symbols, as git's patience diff: symbols found exactly once in the
/// base and once in the side are matched first (the longest run of them in the same order), the
/// runs of equal symbols touching those anchors are matched too, and each stretch between two
/// anchors is diffed the same way on its own. In a stretch with no unique symbol in common, the
/// caller's `correspondence` may name changed symbols that still correspond (for lines: a line and
/// its edited version, which share a word found once in each); they anchor the stretch the same
/// way, as a one-for-one change. What is left goes to `MyersDiff`'s shortest edit script.
///
/// Why: a shortest edit script pairs any equal symbols it can, so when one side adds or removes a
/// paragraph, the blank lines between paragraphs pair up across paragraphs, and the lines they
/// enclose look rewritten one into another ("Bravo…" became "Alpha… now") when each was in fact
/// kept and edited in place. A line found once on each side does not pair by accident, nor does a
/// line edited in place with its original, and blank lines then pair only between those.
///
/// Besides the hunks, the diff says which base symbols it is sure of (`pinned`): an anchor, or a
/// symbol in an unbroken run of matches from an anchor, a correspondence or either end of the
/// text. A symbol matched only by the shortest-edit search is not pinned: it may be paired with
/// the wrong copy of itself, so a finer merge must not trust it as a boundary (see
/// `SequenceMerge`). The hunks rebuild the side exactly, like `MyersDiff`'s.
package struct AnchoredDiff: Sendable {
    /// The hunks that turn the base into the side, in order. Two touch only where one of them is
    /// a correspondence: a line edited in place stays apart from base lines deleted beside it (so
    /// that the deletion is still seen as one) and from lines added before it, not from lines
    /// added after it (one run of typing past the line's end).
    package let hunks: [Hunk]
    /// For each base symbol, true when it is matched, and matched surely (see above).
    package let pinned: [Bool]
    /// For each base symbol, true when the side removed or replaced it (it lies in a hunk).
    package let removed: [Bool]
    /// For each side symbol, true when the side added it (it lies in a hunk).
    package let added: [Bool]

    /// Names the symbols of `base[baseRange]` and `side[sideRange]` that correspond although no
    /// symbol there is unique to both: pairs `(x, y)`, increasing in both; pairs that are not are
    /// skipped.
    package typealias Correspondence = (_ baseRange: Range<Int>, _ sideRange: Range<Int>) -> [(x: Int, y: Int)]

    /// Diffs `base` against `side`. Only symbols `canAnchor` holds true for may anchor (all when
    /// it is empty): a line with no word in it, blank or "}", is unique by chance, not because it
    /// is the same line on both sides. `workLimit` bounds the stretches the anchor search scans
    /// and, separately, the shortest-edit search (see `MyersDiff.defaultWorkLimit`); past it, the
    /// stretches left are searched by `MyersDiff` alone, or marked replaced.
    package init(
        from base: [Int], to side: [Int], canAnchor: [Bool] = [], workLimit: Int = MyersDiff.defaultWorkLimit,
        correspondence: Correspondence? = nil
    ) {
        var search = EditSearch(a: base, b: side, costLimit: MyersDiff.defaultCostLimit, work: workLimit)
        var pinned = Array(repeating: false, count: base.count)
        var finder = UniqueAnchorFinder(
            symbolCount: max(base.max() ?? -1, side.max() ?? -1, canAnchor.count - 1) + 1, canAnchor: canAnchor)
        var budget = workLimit
        var corresponding: [(x: Int, y: Int)] = []
        // Stretches still to diff; each one's ends are anchors or the ends of the texts.
        var pending = [(xoff: 0, xlim: base.count, yoff: 0, ylim: side.count)]
        while var stretch = pending.popLast() {
            while stretch.xoff < stretch.xlim && stretch.yoff < stretch.ylim
                && base[stretch.xoff] == side[stretch.yoff]
            {
                pinned[stretch.xoff] = true
                stretch.xoff += 1
                stretch.yoff += 1
            }
            while stretch.xlim > stretch.xoff && stretch.ylim > stretch.yoff
                && base[stretch.xlim - 1] == side[stretch.ylim - 1]
            {
                stretch.xlim -= 1
                stretch.ylim -= 1
                pinned[stretch.xlim] = true
            }
            let (xoff, xlim, yoff, ylim) = stretch
            if xoff == xlim || yoff == ylim {
                search.replace(xoff, xlim, yoff, ylim)
                continue
            }
            budget -= (xlim - xoff) + (ylim - yoff)
            guard budget > 0 else {
                search.compare(xoff, xlim, yoff, ylim)
                continue
            }
            var anchors = finder.anchors(base, xoff..<xlim, side, yoff..<ylim)
            // One symbol against one has nothing to pair but itself.
            if anchors.isEmpty, xlim - xoff + ylim - yoff > 2, let correspondence {
                anchors = correspondence(xoff..<xlim, yoff..<ylim)
            }
            var x = xoff
            var y = yoff
            for anchor in anchors where x <= anchor.x && anchor.x < xlim && y <= anchor.y && anchor.y < ylim {
                if base[anchor.x] == side[anchor.y] {
                    pinned[anchor.x] = true
                } else {
                    search.replace(anchor.x, anchor.x + 1, anchor.y, anchor.y + 1)
                    corresponding.append(anchor)
                }
                pending.append((x, anchor.x, y, anchor.y))
                x = anchor.x + 1
                y = anchor.y + 1
            }
            if x == xoff {
                search.compare(xoff, xlim, yoff, ylim)
                continue
            }
            pending.append((x, xlim, y, ylim))
        }
        // A line edited in place stays apart from base lines deleted beside it, so that the
        // deletion is seen as one, and from lines added before it; lines added after it stay
        // with it: typing on past the end of a line is one run of typing.
        var breaks: [(x: Int, y: Int)] = []
        for (x, y) in corresponding.sorted(by: { $0.x < $1.x }) {
            if (x > 0 && search.removed[x - 1]) || (y > 0 && search.added[y - 1]) { breaks.append((x, y)) }
            if x + 1 < base.count && search.removed[x + 1] { breaks.append((x + 1, y + 1)) }
        }
        hunks = search.hunks(breaks: breaks)
        self.pinned = pinned
        removed = search.removed
        added = search.added
    }
}
