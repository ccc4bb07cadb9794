import QuireMerge
import Testing

/// `AnchoredDiff` must keep `MyersDiff`'s contract whatever it anchors on: its hunks rebuild the
/// side exactly, sorted and never overlapping, and a pinned symbol is one it matched.
struct AnchoredDiffTests {
    @Test func hunksRebuildTheSideWhateverTheAnchors() async {
        var random = SplitMix64(seed: 11)
        for round in 0..<3_000 {
            if round % 64 == 0 { await Task.yield() }  // share the pool with other tests
            let base = MyersDiffTests.randomSequence(&random, maxLength: 30, alphabet: 6)
            let side = MyersDiffTests.randomSequence(&random, maxLength: 30, alphabet: 6)
            let canAnchor = (0..<6).map { _ in Bool.random(using: &random) }
            // Arbitrary pairs, increasing or not: the diff must skip what it cannot use.
            let pairs = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                (x: Int.random(in: 0..<40, using: &random), y: Int.random(in: 0..<40, using: &random))
            }
            let diff = AnchoredDiff(from: base, to: side, canAnchor: canAnchor, correspondence: { _, _ in pairs })

            #expect(MyersDiffTests.apply(diff.hunks, to: base, side: side) == side, "round \(round)")
            for (first, second) in zip(diff.hunks, diff.hunks.dropFirst()) {
                #expect(
                    first.baseEnd <= second.baseStart && first.sideEnd <= second.sideStart, "round \(round)")
            }
            for (position, pinned) in diff.pinned.enumerated() where pinned {
                #expect(!diff.removed[position], "round \(round)")
            }
        }
    }

    @Test func blankLinesPairOnlyBetweenParagraphsTheyKept() {
        // Lines as symbols: 0 is a blank line; paragraphs 1, 2, 3 with their edited forms 11, 12, 13.
        // The side adds paragraph 9 on top and edits the other three in place.
        let base = [1, 0, 2, 0, 3]
        let side = [9, 0, 11, 0, 12, 0, 13]
        let corresponding = [(x: 0, y: 2), (x: 2, y: 4), (x: 4, y: 6)]
        let diff = AnchoredDiff(
            from: base, to: side, canAnchor: [false] + Array(repeating: true, count: 13),
            correspondence: { baseRange, sideRange in
                corresponding.filter { baseRange.contains($0.x) && sideRange.contains($0.y) }
            })

        #expect(
            diff.hunks == [
                Hunk(baseStart: 0, baseEnd: 0, sideStart: 0, sideEnd: 2),
                Hunk(baseStart: 0, baseEnd: 1, sideStart: 2, sideEnd: 3),
                Hunk(baseStart: 2, baseEnd: 3, sideStart: 4, sideEnd: 5),
                Hunk(baseStart: 4, baseEnd: 5, sideStart: 6, sideEnd: 7),
            ])
        #expect(diff.pinned == [false, true, false, true, false])
    }
}
