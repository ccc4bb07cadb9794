import QuireMerge
import Testing

/// The line and word diffs rest on `MyersDiff`: its hunks must rebuild the side exactly, be as
/// small as possible, and keep the shape the merge relies on (sorted, never touching).
struct MyersDiffTests {
    /// Rebuilds the side from the base and the hunks.
    static func apply(_ hunks: [Hunk], to base: [Int], side: [Int]) -> [Int] {
        var result: [Int] = []
        var position = 0
        for hunk in hunks {
            result += base[position..<hunk.baseStart]
            result += side[hunk.sideStart..<hunk.sideEnd]
            position = hunk.baseEnd
        }
        return result + base[position...]
    }

    /// Length of a longest common subsequence, by the textbook table (fine for small inputs).
    static func lcsLength(_ a: [Int], _ b: [Int]) -> Int {
        var previous = Array(repeating: 0, count: b.count + 1)
        for x in a {
            var current = [0]
            for (j, y) in b.enumerated() {
                current.append(x == y ? previous[j] + 1 : max(previous[j + 1], current[j]))
            }
            previous = current
        }
        return previous[b.count]
    }

    static func randomSequence(_ random: inout SplitMix64, maxLength: Int, alphabet: Int) -> [Int] {
        (0..<Int.random(in: 0...maxLength, using: &random)).map { _ in
            Int.random(in: 0..<alphabet, using: &random)
        }
    }

    @Test func hunksRebuildTheSideWithTheFewestEdits() async {
        var random = SplitMix64(seed: 42)
        for round in 0..<3_000 {
            if round % 64 == 0 { await Task.yield() }  // share the pool with other tests
            let base = Self.randomSequence(&random, maxLength: 30, alphabet: 3)
            let side = Self.randomSequence(&random, maxLength: 30, alphabet: 3)
            let hunks = MyersDiff.hunks(from: base, to: side)

            #expect(Self.apply(hunks, to: base, side: side) == side, "round \(round)")
            let edits = hunks.reduce(0) { $0 + ($1.baseEnd - $1.baseStart) + ($1.sideEnd - $1.sideStart) }
            #expect(edits == base.count + side.count - 2 * Self.lcsLength(base, side), "round \(round)")
            for (first, second) in zip(hunks, hunks.dropFirst()) {
                #expect(
                    first.baseEnd < second.baseStart && first.sideEnd < second.sideStart, "round \(round)")
            }
        }
    }

    @Test func aSearchCutShortStillRebuildsTheSide() async {
        var random = SplitMix64(seed: 7)
        for round in 0..<1_000 {
            if round % 64 == 0 { await Task.yield() }  // share the pool with other tests
            let base = Self.randomSequence(&random, maxLength: 40, alphabet: 4)
            let side = Self.randomSequence(&random, maxLength: 40, alphabet: 4)
            let cutShort = MyersDiff.hunks(from: base, to: side, costLimit: 1)
            #expect(Self.apply(cutShort, to: base, side: side) == side, "round \(round)")
            let outOfWork = MyersDiff.hunks(
                from: base, to: side, workLimit: Int.random(in: 0...40, using: &random))
            #expect(Self.apply(outOfWork, to: base, side: side) == side, "round \(round)")
        }
    }

    @Test func editsFarApartInALongSequenceGiveExactHunks() async {
        let base = Array(0..<200_000)
        var side = base
        side[10] = -1
        side.remove(at: 150_000)
        side.insert(-2, at: 199_000)

        let hunks = MyersDiff.hunks(from: base, to: side)

        #expect(
            hunks == [
                Hunk(baseStart: 10, baseEnd: 11, sideStart: 10, sideEnd: 11),
                Hunk(baseStart: 150_000, baseEnd: 150_001, sideStart: 150_000, sideEnd: 150_000),
                Hunk(baseStart: 199_001, baseEnd: 199_001, sideStart: 199_000, sideEnd: 199_001),
            ])
    }
}
