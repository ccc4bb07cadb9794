/// Which input a stretch of merged output is copied from.
enum MergeSource: Equatable, Sendable {
    case base, local, server
}

/// One stretch of merged output: symbols copied from one input, or bytes settled by a finer merge.
enum MergePiece: Equatable, Sendable {
    case copy(MergeSource, Range<Int>)
    case text([UInt8])
}

/// The rules that differ between merging lines and merging word tokens.
struct MergeRules {
    /// True when symbol `left` directly followed by symbol `right` would fuse into something
    /// neither side wrote: an open last line followed by another line, or two words.
    let glues: (_ left: Int, _ right: Int) -> Bool
    /// True when an insertion right next to the other side's deletion counts as editing what
    /// was deleted (for word tokens: "(" typed before a word the other side deleted).
    let insertionBesideDeletionClashes: Bool
    /// Whether two different insertions at one point, given their first symbols, are both kept.
    /// Always for lines (two people adding items to a list). For words only when both start a new
    /// line (appending lines after a last line without a line break): "milk" → "oat milk" against
    /// "whole milk" is two answers to one question, and "oat whole milk" a phrase nobody wrote.
    var keepsBothInsertions: (_ localFirst: Int, _ serverFirst: Int) -> Bool = { _, _ in true }
}

/// A region both sides changed, handed to a finer merge: each input's symbols over it.
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
struct SequenceMerge {
    let base: [Int]
    let local: [Int]
    let server: [Int]
    let rules: MergeRules

    /// The merged output as pieces, or nil for a clash.
    func merge(retry: (MergeConflict) -> [UInt8]?) -> [MergePiece]? {
        let groups = group(
            local: MyersDiff.hunks(from: base, to: local),
            server: MyersDiff.hunks(from: base, to: server))
        var pieces: [MergePiece] = []
        var position = 0
        var localShift = 0
        var serverShift = 0
        for group in groups {
            if position < group.start { pieces.append(.copy(.base, position..<group.start)) }
            let localGrowth = group.growth(of: .local)
            let serverGrowth = group.growth(of: .server)
            let localRange = (group.start + localShift)..<(group.end + localShift + localGrowth)
            let serverRange = (group.start + serverShift)..<(group.end + serverShift + serverGrowth)
            localShift += localGrowth
            serverShift += serverGrowth
            guard let settled = settle(group, local: localRange, server: serverRange, retry: retry) else {
                return nil
            }
            pieces += settled
            position = group.end
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

    // MARK: - Settling

    private func settle(
        _ group: HunkGroup, local localRange: Range<Int>, server serverRange: Range<Int>,
        retry: (MergeConflict) -> [UInt8]?
    ) -> [MergePiece]? {
        guard group.touches(.server) else { return [.copy(.local, localRange)] }
        guard group.touches(.local) else { return [.copy(.server, serverRange)] }
        let mine = local[localRange]
        let theirs = server[serverRange]
        if mine.elementsEqual(theirs) { return [.copy(.server, serverRange)] }
        if group.isPoint {
            if theirs.contains(run: mine) { return [.copy(.server, serverRange)] }
            if mine.contains(run: theirs) { return [.copy(.local, localRange)] }
            guard let localFirst = mine.first, let serverFirst = theirs.first,
                rules.keepsBothInsertions(localFirst, serverFirst)
            else { return nil }
            // Both insertions are non-empty: only the junction between them can glue.
            if let end = theirs.last, let start = mine.first, !rules.glues(end, start) {
                return [.copy(.server, serverRange), .copy(.local, localRange)]
            }
            if let end = mine.last, let start = theirs.first, !rules.glues(end, start) {
                return [.copy(.local, localRange), .copy(.server, serverRange)]
            }
        } else if group.hunks.allSatisfy(\.hunk.isDeletion) {
            return []
        } else if deletionMeetsEdit(in: group) {
            return nil
        }
        let conflict = MergeConflict(base: group.start..<group.end, local: localRange, server: serverRange)
        return retry(conflict).map { [.text($0)] }
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

    private func symbols(of side: MergeSource) -> [Int] {
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
private struct SideHunk {
    let side: MergeSource
    let hunk: Hunk
}

/// Hunks settled together, and the base range they cover.
private struct HunkGroup {
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
