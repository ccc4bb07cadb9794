/// A shortest edit script between two sequences of symbols: Myers' O(ND) algorithm in its
/// linear-space form (the "middle snake" divide and conquer of Myers 1986, section 4b, shaped
/// like GNU diff's `compareseq`).
///
/// Time is O((N+M)·D) and memory O(N+M), where D is the number of inserted and deleted symbols.
/// Each subproblem first trims its common prefix and suffix, so edits far apart in a large text
/// cost little. A subproblem whose search passes `costLimit` rounds is given up as one
/// replacement: the script stays correct (applying it gives the side exactly), only coarser,
/// which can turn a merge into a clash but never into a wrong merge.
package enum MyersDiff {
    /// Rounds of the middle-snake search (about half the edit distance) after which a
    /// subproblem is treated as replaced wholesale.
    package static let defaultCostLimit = 4096

    /// The hunks that turn `base` into `side`, in order.
    package static func hunks(from base: [Int], to side: [Int], costLimit: Int = defaultCostLimit) -> [Hunk] {
        var search = EditSearch(a: base, b: side, costLimit: max(1, costLimit))
        search.compare(0, base.count, 0, side.count)
        return search.hunks()
    }
}

/// The working state of one diff: which symbols of each sequence are not part of the common
/// subsequence, and the two diagonal frontiers reused by every middle-snake search.
private struct EditSearch {
    let a: [Int]
    let b: [Int]
    var removed: [Bool]
    var added: [Bool]
    /// Furthest x reached on each diagonal k = x - y, stored at index k + offset.
    var forward: [Int]
    var backward: [Int]
    let offset: Int
    let costLimit: Int

    init(a: [Int], b: [Int], costLimit: Int) {
        self.a = a
        self.b = b
        self.costLimit = costLimit
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
        if xoff == xlim {
            for y in yoff..<ylim { added[y] = true }
        } else if yoff == ylim {
            for x in xoff..<xlim { removed[x] = true }
        } else if let (x, y) = middleSnake(xoff, xlim, yoff, ylim) {
            compare(xoff, x, yoff, y)
            compare(x, xlim, y, ylim)
        } else {
            for x in xoff..<xlim { removed[x] = true }
            for y in yoff..<ylim { added[y] = true }
        }
    }

    /// A point on a shortest edit path of the (trimmed, both non-empty) subproblem that splits it
    /// into two strictly smaller ones, or nil when the search passed the cost limit.
    ///
    /// Searches forward from the start and backward from the end, one edit at a time, until the
    /// two frontiers meet on a diagonal.
    private mutating func middleSnake(_ xoff: Int, _ xlim: Int, _ yoff: Int, _ ylim: Int) -> (Int, Int)? {
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
        for _ in 1...costLimit {
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
        return nil
    }

    /// Turns the marks into hunks: each hunk is a maximal run of removed symbols of `a` together
    /// with the maximal run of added symbols of `b` at the same place.
    func hunks() -> [Hunk] {
        var result: [Hunk] = []
        var x = 0
        var y = 0
        while x < a.count || y < b.count {
            if x < a.count && y < b.count && !removed[x] && !added[y] {
                x += 1
                y += 1
                continue
            }
            let startX = x
            let startY = y
            while x < a.count && removed[x] { x += 1 }
            while y < b.count && added[y] { y += 1 }
            result.append(Hunk(baseStart: startX, baseEnd: x, sideStart: startY, sideEnd: y))
        }
        return result
    }
}
