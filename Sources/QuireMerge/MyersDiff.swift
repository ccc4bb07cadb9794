/// A shortest edit script between two sequences of symbols: Myers' O(ND) algorithm in its
/// linear-space form (the "middle snake" divide and conquer of Myers 1986, section 4b, shaped
/// like GNU diff's `compareseq`).
///
/// Time is O((N+M)·D) and memory O(N+M), where D is the number of inserted and deleted symbols.
/// Each subproblem first trims its common prefix and suffix, so edits far apart in a large text
/// cost little. A subproblem whose search passes `costLimit` rounds is split where the search got
/// furthest (GNU diff's heuristic): the script stays correct (applying it gives the side
/// exactly), only perhaps longer than the shortest, which can turn a merge into a clash but never
/// into a wrong merge.
package enum MyersDiff {
    /// Rounds of the middle-snake search (about half the edit distance) after which a
    /// subproblem is split at the furthest point reached instead of a middle snake.
    package static let defaultCostLimit = 1024
    /// Diagonals one diff may visit in all its searches (some tens of milliseconds); past it,
    /// every part not yet settled is marked replaced wholesale, so even two unrelated
    /// megabyte texts are compared quickly.
    package static let defaultWorkLimit = 1 << 23

    /// The hunks that turn `base` into `side`, in order.
    package static func hunks(
        from base: [Int], to side: [Int], costLimit: Int = defaultCostLimit, workLimit: Int = defaultWorkLimit
    ) -> [Hunk] {
        var search = EditSearch(a: base, b: side, costLimit: max(1, costLimit), work: workLimit)
        search.compare(0, base.count, 0, side.count)
        return search.hunks()
    }
}

/// The working state of one diff: which symbols of each sequence are not part of the common
/// subsequence, and the two diagonal frontiers reused by every middle-snake search.
///
/// Every symbol starts out matched; `compare` and `replace` mark the ones that are not, so a
/// caller (`AnchoredDiff`) may settle some stretches itself and search only the others.
struct EditSearch {
    let a: [Int]
    let b: [Int]
    var removed: [Bool]
    var added: [Bool]
    /// Furthest x reached on each diagonal k = x - y, stored at index k + offset.
    var forward: [Int]
    var backward: [Int]
    let offset: Int
    let costLimit: Int
    /// Diagonals the searches may still visit.
    var work: Int

    init(a: [Int], b: [Int], costLimit: Int, work: Int) {
        self.a = a
        self.b = b
        self.costLimit = costLimit
        self.work = work
        removed = Array(repeating: false, count: a.count)
        added = Array(repeating: false, count: b.count)
        offset = b.count + 1
        forward = Array(repeating: 0, count: a.count + b.count + 3)
        backward = forward
    }

    /// Marks the edits between `a[xoff..<xlim]` and `b[yoff..<ylim]`.
    mutating func compare(_ xoff: Int, _ xlim: Int, _ yoff: Int, _ ylim: Int) {
        var xoff = xoff
        var xlim = xlim
        var yoff = yoff
        var ylim = ylim
        while xoff < xlim && yoff < ylim && a[xoff] == b[yoff] {
            xoff += 1
            yoff += 1
        }
        while xlim > xoff && ylim > yoff && a[xlim - 1] == b[ylim - 1] {
            xlim -= 1
            ylim -= 1
        }
        if xoff == xlim || yoff == ylim || work <= 0 {
            replace(xoff, xlim, yoff, ylim)
            return
        }
        let (x, y) = middleSnake(xoff, xlim, yoff, ylim)
        // A split at a corner cannot happen (see `middleSnake`); if it did, recursing would
        // never end, so the part is marked replaced instead.
        guard (x, y) != (xoff, yoff) && (x, y) != (xlim, ylim) else {
            replace(xoff, xlim, yoff, ylim)
            return
        }
        compare(xoff, x, yoff, y)
        compare(x, xlim, y, ylim)
    }

    /// Marks all of `a[xoff..<xlim]` removed and all of `b[yoff..<ylim]` added.
    mutating func replace(_ xoff: Int, _ xlim: Int, _ yoff: Int, _ ylim: Int) {
        for x in xoff..<xlim { removed[x] = true }
        for y in yoff..<ylim { added[y] = true }
    }

    /// A point that splits the (trimmed, both non-empty) subproblem into two strictly smaller
    /// ones: on a shortest edit path, or, once the search passes the cost limit, the furthest
    /// point either search reached.
    ///
    /// Searches forward from the start and backward from the end, one edit at a time, until the
    /// two frontiers meet on a diagonal.
    private mutating func middleSnake(_ xoff: Int, _ xlim: Int, _ yoff: Int, _ ylim: Int) -> (Int, Int) {
        let dmin = xoff - ylim
        let dmax = xlim - yoff
        let fmid = xoff - yoff
        let bmid = xlim - ylim
        let odd = (fmid - bmid) & 1 != 0
        var fmin = fmid
        var fmax = fmid
        var bmin = bmid
        var bmax = bmid
        forward[fmid + offset] = xoff
        backward[bmid + offset] = xlim
        for _ in 1...costLimit where work > 0 {
            work -= (fmax - fmin) + (bmax - bmin) + 2
            // Extend the forward frontier by one edit.
            if fmin > dmin {
                fmin -= 1
                forward[fmin - 1 + offset] = -1
            } else {
                fmin += 1
            }
            if fmax < dmax {
                fmax += 1
                forward[fmax + 1 + offset] = -1
            } else {
                fmax -= 1
            }
            for d in stride(from: fmax, through: fmin, by: -2) {
                let low = forward[d - 1 + offset]
                let high = forward[d + 1 + offset]
                var x = low >= high ? low + 1 : high
                var y = x - d
                while x < xlim && y < ylim && a[x] == b[y] {
                    x += 1
                    y += 1
                }
                forward[d + offset] = x
                if odd && bmin <= d && d <= bmax && backward[d + offset] <= x { return (x, y) }
            }
            // Extend the backward frontier by one edit.
            if bmin > dmin {
                bmin -= 1
                backward[bmin - 1 + offset] = Int.max
            } else {
                bmin += 1
            }
            if bmax < dmax {
                bmax += 1
                backward[bmax + 1 + offset] = Int.max
            } else {
                bmax -= 1
            }
            for d in stride(from: bmax, through: bmin, by: -2) {
                let low = backward[d - 1 + offset]
                let high = backward[d + 1 + offset]
                var x = low < high ? low : high - 1
                var y = x - d
                while x > xoff && y > yoff && a[x - 1] == b[y - 1] {
                    x -= 1
                    y -= 1
                }
                backward[d + offset] = x
                if !odd && fmin <= d && d <= fmax && x <= forward[d + offset] { return (x, y) }
            }
        }
        return furthestPoint(xoff, xlim, yoff, ylim, forward: fmin...fmax, backward: bmin...bmax)
    }

    /// After a search cut short: the point of either frontier that got furthest from its own
    /// corner (GNU diff's heuristic for expensive inputs), so the two parts still shrink.
    private func furthestPoint(
        _ xoff: Int, _ xlim: Int, _ yoff: Int, _ ylim: Int,
        forward forwardDiagonals: ClosedRange<Int>, backward backwardDiagonals: ClosedRange<Int>
    ) -> (Int, Int) {
        var forwardBest = (x: xoff, sum: Int.min)
        for d in stride(from: forwardDiagonals.upperBound, through: forwardDiagonals.lowerBound, by: -2) {
            var x = min(forward[d + offset], xlim)
            var y = x - d
            if y > ylim { (x, y) = (ylim + d, ylim) }
            if x + y > forwardBest.sum { forwardBest = (x, x + y) }
        }
        var backwardBest = (x: xlim, sum: Int.max)
        for d in stride(from: backwardDiagonals.upperBound, through: backwardDiagonals.lowerBound, by: -2) {
            var x = max(backward[d + offset], xoff)
            var y = x - d
            if y < yoff { (x, y) = (yoff + d, yoff) }
            if x + y < backwardBest.sum { backwardBest = (x, x + y) }
        }
        let forwardGain = forwardBest.sum - (xoff + yoff)
        let backwardGain = (xlim + ylim) - backwardBest.sum
        return forwardGain > backwardGain
            ? (forwardBest.x, forwardBest.sum - forwardBest.x)
            : (backwardBest.x, backwardBest.sum - backwardBest.x)
    }

    /// Turns the marks into hunks: each hunk is a maximal run of removed symbols of `a` together
    /// with the maximal run of added symbols of `b` at the same place, cut at every point of
    /// `breaks` (positions `(x, y)` on the edit path, in order), where two hunks then touch.
    func hunks(breaks: [(x: Int, y: Int)] = []) -> [Hunk] {
        var result: [Hunk] = []
        var x = 0
        var y = 0
        var nextBreak = 0
        while x < a.count || y < b.count {
            if x < a.count && y < b.count && !removed[x] && !added[y] {
                x += 1
                y += 1
                continue
            }
            let startX = x
            let startY = y
            while nextBreak < breaks.count && breaks[nextBreak].x <= x && breaks[nextBreak].y <= y {
                nextBreak += 1
            }
            let (endX, endY) = nextBreak < breaks.count ? breaks[nextBreak] : (a.count, b.count)
            while x < endX && removed[x] { x += 1 }
            while y < endY && added[y] { y += 1 }
            result.append(Hunk(baseStart: startX, baseEnd: x, sideStart: startY, sideEnd: y))
        }
        return result
    }
}
