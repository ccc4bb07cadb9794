/// Finds the anchors of one stretch: the symbols that may anchor (`canAnchor`, all when empty)
/// found exactly once in each sequence's part, and of those the longest run in the same order on
/// both sides (by patience sorting).
///
/// The counting tables are sized to the symbols once and cleaned after each stretch, so a diff
/// with many small stretches costs what the stretches hold, not the symbol count each time.
struct UniqueAnchorFinder {
    private var countInA: [Int32]
    private var countInB: [Int32]
    private var positionInB: [Int]

    private let canAnchor: [Bool]

    init(symbolCount: Int, canAnchor: [Bool] = []) {
        self.canAnchor = canAnchor
        countInA = Array(repeating: 0, count: symbolCount)
        countInB = countInA
        positionInB = Array(repeating: 0, count: symbolCount)
    }

    /// The anchors `(x, y)` with `a[x] == b[y]`, increasing in both x and y.
    mutating func anchors(_ a: [Int], _ xs: Range<Int>, _ b: [Int], _ ys: Range<Int>) -> [(x: Int, y: Int)] {
        for x in xs { countInA[a[x]] += 1 }
        for y in ys {
            countInB[b[y]] += 1
            positionInB[b[y]] = y
        }
        var candidates: [(x: Int, y: Int)] = []
        for x in xs where countInA[a[x]] == 1 && countInB[a[x]] == 1 && (canAnchor.isEmpty || canAnchor[a[x]]) {
            candidates.append((x, positionInB[a[x]]))
        }
        for x in xs { countInA[a[x]] = 0 }
        for y in ys { countInB[b[y]] = 0 }
        return Self.longestIncreasingRun(candidates)
    }

    /// The longest subsequence of `candidates` (sorted by x) whose y also increases.
    private static func longestIncreasingRun(_ candidates: [(x: Int, y: Int)]) -> [(x: Int, y: Int)] {
        guard candidates.count > 1 else { return candidates }
        // tails[k]: index of the candidate ending the best run of length k + 1 found so far.
        var tails: [Int] = []
        var previous = Array(repeating: -1, count: candidates.count)
        for (index, candidate) in candidates.enumerated() {
            let k = tails.partitionPoint { candidates[$0].y >= candidate.y }
            if k > 0 { previous[index] = tails[k - 1] }
            if k == tails.count { tails.append(index) } else { tails[k] = index }
        }
        var run: [(x: Int, y: Int)] = []
        var index = tails[tails.count - 1]
        while index >= 0 {
            run.append(candidates[index])
            index = previous[index]
        }
        return run.reversed()
    }
}

extension Array {
    /// The first index whose element satisfies `belongs`, for an array where every element that
    /// does comes after every element that does not (binary search).
    func partitionPoint(where belongs: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
