/// Which input a stretch of merged output is copied from.
enum MergeSource: Equatable, Sendable {
    case base, local, server
}

/// One stretch of merged output: symbols copied from one input, or bytes settled by a finer merge.
enum MergePiece: Equatable, Sendable {
    case copy(MergeSource, Range<Int>)
    case text([UInt8])
}

/// A region both sides changed, handed to a finer merge: each input's symbols over it. Its ends
/// are symbols both diffs are sure of (see `SequenceMerge`), or the ends of the texts.
struct MergeConflict {
    let base: Range<Int>
    let local: Range<Int>
    let server: Range<Int>
}

/// diff3 of three symbol sequences: diff the base against each side, group the two sides' hunks
/// where they overlap, copy every group only one side touched, and settle the groups both touched.
///
/// Two hunks overlap when their base ranges share a symbol, or when both insert at the same
/// point, or when an insertion falls strictly inside the other's range. Hunks that only touch
/// (one ends where the other starts) combine, as edits of adjacent lines do, unless their outputs
/// would glue (`MergeRules.glues`), or the rules say an insertion beside a deletion clashes.
///
/// A group both sides touched is settled, in order, as:
/// 1. both made the same change: it counts once;
/// 2. both inserted at the same point: if one insertion begins or ends with the whole other one,
///    the longer alone; otherwise (where the rules keep both, as for lines) both, the server's first, then the local one, so the text that is
///    already on the server and other devices keeps its place and this device's text follows, as
///    if typed after syncing (the local first only when the server's first would glue);
/// 3. both only deleted: the union of their deletions;
/// 4. a deletion meets the other side's edit: a clash, never a silent drop;
/// 5. otherwise the `retry` closure (a finer merge), whose nil is a clash.
///
/// Both diffs are anchored (`AnchoredDiff`): on symbols found once on each side and, where there
/// are none, on symbols that are one unit edited (`MergeRules.correspondence`). A group both sides
/// changed differently goes to the finer merge only over a region whose two ends both diffs are
/// sure of (pinned): it is widened to the nearest such symbols, taking in every group inside, and
/// it clashes instead if a side moved a unit into or out of the region, or rewrote what it
/// replaced there (`mayMergeFiner`). Where there is no finer merge (word tokens), a change goes
/// only where both diffs are sure of its place (`MergeRules.placesOnlyWhereSure`).
///
/// Two devices: one adds a paragraph on top, edits the next three and deletes the fourth; the
/// other adds a sentence to the second. By a shortest edit script the blank lines pair across
/// paragraphs, the first device's diff says the second paragraph became the edited first one,
/// and retried word by word the sentence lands in the first paragraph. Anchored, each paragraph
/// pairs with its edited self, the blank lines between them, and the sentence lands in the second.
struct SequenceMerge {
    let base: [Int]
    let local: [Int]
    let server: [Int]
    let rules: MergeRules

    /// The merged output as pieces, or nil for a clash.
    func merge(retry: (MergeConflict) -> [UInt8]?) -> [MergePiece]? {
        let correspondence = rules.correspondence
        let localDiff = AnchoredDiff(
            from: base, to: local, canAnchor: rules.canAnchor,
            correspondence: correspondence.map { find in { find(.local, $0, $1) } })
        let serverDiff = AnchoredDiff(
            from: base, to: server, canAnchor: rules.canAnchor,
            correspondence: correspondence.map { find in { find(.server, $0, $1) } })
        let groups = group(local: localDiff.hunks, server: serverDiff.hunks)
        var stretches: [SettledStretch] = []
        var localShift = 0
        var serverShift = 0
        for group in groups {
            let localGrowth = group.growth(of: .local)
            let serverGrowth = group.growth(of: .server)
            let placed = PlacedGroup(
                base: group.start..<group.end,
                local: (group.start + localShift)..<(group.end + localShift + localGrowth),
                server: (group.start + serverShift)..<(group.end + serverShift + serverGrowth))
            localShift += localGrowth
            serverShift += serverGrowth
            var settlement = settle(group, local: placed.local, server: placed.server)
            if rules.placesOnlyWhereSure, case .pieces = settlement,
                !isSurelyPlaced(group, localDiff, serverDiff)
            {
                settlement = .finer
            }
            var stretch: SettledStretch
            switch settlement {
            case .clash:
                return nil
            case .pieces(let pieces):
                stretch = SettledStretch(
                    base: placed.base, pieces: pieces, first: placed, last: placed, hunks: group.hunks)
            case .finer:
                let region = anchoredRegion(around: placed.base, localDiff.pinned, serverDiff.pinned)
                stretch = SettledStretch(base: region, pieces: nil, first: placed, last: placed, hunks: group.hunks)
            }
            // A region for the finer merge takes in every stretch that overlaps it.
            while let previous = stretches.last, previous.pieces == nil || stretch.pieces == nil,
                previous.base.overlapsInside(stretch.base)
            {
                stretches.removeLast()
                stretch = SettledStretch(
                    base: min(
                        previous.base.lowerBound, stretch.base.lowerBound)..<max(
                            previous.base.upperBound, stretch.base.upperBound),
                    pieces: nil, first: previous.first, last: stretch.last, hunks: previous.hunks + stretch.hunks)
            }
            stretches.append(stretch)
        }
        var pieces: [MergePiece] = []
        var position = 0
        var occurrences: Occurrences?
        for stretch in stretches {
            if position < stretch.base.lowerBound { pieces.append(.copy(.base, position..<stretch.base.lowerBound)) }
            if let settled = stretch.pieces {
                pieces += settled
            } else {
                guard mayMergeFiner(stretch, localDiff, serverDiff, &occurrences) else { return nil }
                let conflict = MergeConflict(base: stretch.base, local: stretch.local, server: stretch.server)
                guard let text = retry(conflict) else { return nil }
                pieces.append(.text(text))
            }
            position = stretch.base.upperBound
        }
        if position < base.count { pieces.append(.copy(.base, position..<base.count)) }
        return pieces
    }

    // MARK: - Grouping

    /// Both sides' hunks, sorted by base position, gathered into groups of overlapping hunks.
    private func group(local: [Hunk], server: [Hunk]) -> [HunkGroup] {
        var groups: [HunkGroup] = []
        var l = 0
        var s = 0
        while l < local.count || s < server.count {
            let next: SideHunk
            if s == server.count || (l < local.count && precedes(local[l], server[s])) {
                next = SideHunk(side: .local, hunk: local[l])
                l += 1
            } else {
                next = SideHunk(side: .server, hunk: server[s])
                s += 1
            }
            if let last = groups.last, belongs(next, to: last) {
                groups[groups.count - 1].add(next)
            } else {
                groups.append(HunkGroup(next))
            }
        }
        return groups
    }

    /// Base order: by start, and at one start an insertion before a hunk that removes symbols.
    private func precedes(_ first: Hunk, _ second: Hunk) -> Bool {
        (first.baseStart, first.baseEnd) <= (second.baseStart, second.baseEnd)
    }

    private func belongs(_ next: SideHunk, to group: HunkGroup) -> Bool {
        let start = next.hunk.baseStart
        if group.isPoint {
            if next.hunk.isInsertion && start == group.start { return true }
        } else if start < group.end {
            return true
        }
        guard start == group.end else { return false }
        return group.hunks.contains { other in
            other.side != next.side && other.hunk.baseEnd == start && mustJoin(other, next)
        }
    }

    /// Whether two touching hunks of different sides must be settled together.
    private func mustJoin(_ first: SideHunk, _ second: SideHunk) -> Bool {
        if let breaksLine = rules.breaksLine,
            symbols(of: first.side)[first.hunk.sideStart..<first.hunk.sideEnd].contains(where: breaksLine)
        {
            return true
        }
        if let breaksLine = rules.breaksLine, leavesOpenLine(first, breaksLine) { return true }
        if rules.insertionBesideDeletionClashes
            && ((first.hunk.isInsertion && second.hunk.isDeletion)
                || (first.hunk.isDeletion && second.hunk.isInsertion))
        {
            return true
        }
        guard let left = lastSymbol(of: first), let right = firstSymbol(of: second) else {
            return false
        }
        return rules.glues(left, right)
    }

    /// For word tokens: whether `hunk` replaces a line break that ended the base with the end of
    /// its side's text, leaving its last line open. Whatever the other side put right after that
    /// line break would join the open line: "- milk" made "- milk and eggs" (no line break)
    /// against "- bread" appended after it read "- milk and eggs- bread", found by the merge
    /// fuzz target. Settled together, the two clash.
    private func leavesOpenLine(_ hunk: SideHunk, _ breaksLine: (Int) -> Bool) -> Bool {
        let side = symbols(of: hunk.side)
        guard hunk.hunk.baseEnd > hunk.hunk.baseStart, hunk.hunk.sideEnd == side.count,
            breaksLine(base[hunk.hunk.baseEnd - 1])
        else { return false }
        return side.last.map { !breaksLine($0) } ?? true
    }

    // MARK: - Settling

    /// How one group is settled: by pieces at this level, by a finer merge, or not at all.
    enum Settlement {
        case pieces([MergePiece])
        case finer
        case clash
    }

    private func settle(_ group: HunkGroup, local localRange: Range<Int>, server serverRange: Range<Int>)
        -> Settlement
    {
        guard group.touches(.server) else { return .pieces([.copy(.local, localRange)]) }
        guard group.touches(.local) else { return .pieces([.copy(.server, serverRange)]) }
        let mine = local[localRange]
        let theirs = server[serverRange]
        if mine.elementsEqual(theirs) { return .pieces([.copy(.server, serverRange)]) }
        if group.isPoint {
            if theirs.contains(run: mine) { return .pieces([.copy(.server, serverRange)]) }
            if mine.contains(run: theirs) { return .pieces([.copy(.local, localRange)]) }
            guard let localFirst = mine.first, let serverFirst = theirs.first,
                rules.keepsBothInsertions(localFirst, serverFirst)
            else { return .clash }
            // Both insertions are non-empty: only the junction between them can glue.
            if let end = theirs.last, let start = mine.first, !rules.glues(end, start) {
                return .pieces([.copy(.server, serverRange), .copy(.local, localRange)])
            }
            if let end = mine.last, let start = theirs.first, !rules.glues(end, start) {
                return .pieces([.copy(.local, localRange), .copy(.server, serverRange)])
            }
        } else if group.hunks.allSatisfy(\.hunk.isDeletion) {
            return .pieces([])
        } else if deletionMeetsEdit(in: group) {
            return .clash
        }
        return .finer
    }

    /// True when one side deleted symbols the other side changed, or inserted among.
    private func deletionMeetsEdit(in group: HunkGroup) -> Bool {
        for deletion in group.hunks where deletion.hunk.isDeletion {
            for other in group.hunks where other.side != deletion.side && !other.hunk.isDeletion {
                let d = deletion.hunk
                let o = other.hunk
                let overlaps =
                    o.isInsertion
                    ? d.baseStart < o.baseStart && o.baseStart < d.baseEnd
                    : max(d.baseStart, o.baseStart) < min(d.baseEnd, o.baseEnd)
                let beside =
                    rules.insertionBesideDeletionClashes && o.isInsertion
                    && (o.baseStart == d.baseStart || o.baseStart == d.baseEnd)
                if overlaps || beside { return true }
            }
        }
        return false
    }

    func symbols(of side: MergeSource) -> [Int] {
        switch side {
        case .base: base
        case .local: local
        case .server: server
        }
    }

    private func firstSymbol(of hunk: SideHunk) -> Int? {
        hunk.hunk.isDeletion ? nil : symbols(of: hunk.side)[hunk.hunk.sideStart]
    }

    private func lastSymbol(of hunk: SideHunk) -> Int? {
        hunk.hunk.isDeletion ? nil : symbols(of: hunk.side)[hunk.hunk.sideEnd - 1]
    }
}

/// A hunk and the side that made it.
struct SideHunk {
    let side: MergeSource
    let hunk: Hunk
}

/// Hunks settled together, and the base range they cover.
struct HunkGroup {
    private(set) var hunks: [SideHunk]
    let start: Int
    private(set) var end: Int

    init(_ first: SideHunk) {
        hunks = [first]
        start = first.hunk.baseStart
        end = first.hunk.baseEnd
    }

    /// True when every hunk inserts at `start` and none removes base symbols.
    var isPoint: Bool { start == end }

    mutating func add(_ hunk: SideHunk) {
        hunks.append(hunk)
        end = max(end, hunk.hunk.baseEnd)
    }

    func touches(_ side: MergeSource) -> Bool { hunks.contains { $0.side == side } }

    func growth(of side: MergeSource) -> Int {
        hunks.reduce(0) { $0 + ($1.side == side ? $1.hunk.growth : 0) }
    }
}

extension ArraySlice where Element == Int {
    /// True when this slice begins or ends with all of `other`.
    fileprivate func contains(run other: ArraySlice<Int>) -> Bool {
        guard other.count <= count else { return false }
        return prefix(other.count).elementsEqual(other) || suffix(other.count).elementsEqual(other)
    }
}
