import QuireMerge
import Testing

/// Properties checked over thousands of seeded random edit pairs. Every word in a random note is
/// unique, so a test can tell exactly where each word of a merge came from. A failure names its
/// seed; `randomEdits(seed:...)` with that seed replays it.
struct MergePropertyTests {
    static let rounds = 2_000

    /// The base, local and server texts of one seeded case.
    struct EditPair {
        let seed: UInt64
        let base: RandomNote
        let local: RandomNote
        let server: RandomNote

        func merge() -> MergeResult {
            ThreeWayMerge.merge(base: base.text, local: local.text, server: server.text)
        }
    }

    /// Seeded cases: whole-line edits only, or word edits mixed with line edits.
    static func randomEdits(seed: UInt64, wordEdits: Bool) -> EditPair {
        var random = SplitMix64(seed: seed)
        let base = RandomNote.base(maxLines: 12, using: &random)
        var localEditor = RandomEditor(side: "L")
        var serverEditor = RandomEditor(side: "S")
        let local: RandomNote
        let server: RandomNote
        if wordEdits {
            local = localEditor.editWords(base, maxEdits: 3, using: &random)
            server = serverEditor.editWords(base, maxEdits: 3, using: &random)
        } else {
            local = localEditor.editLines(base, maxEdits: 3, using: &random)
            server = serverEditor.editLines(base, maxEdits: 3, using: &random)
        }
        return EditPair(seed: seed, base: base, local: local, server: server)
    }

    static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" })
    }

    static func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n")
    }

    /// True when `kept` appears in `sequence` in the same order (not necessarily adjacent).
    static func isSubsequence(_ kept: [Substring], of sequence: [Substring]) -> Bool {
        var iterator = sequence.makeIterator()
        return kept.allSatisfy { item in
            while let next = iterator.next() { if next == item { return true } }
            return false
        }
    }

    @Test func oneUnchangedSideGivesTheOtherSideExactly() async {
        for seed in 0..<UInt64(Self.rounds) {
            if seed % 64 == 0 { await Task.yield() }  // share the two pool threads with other tests
            let pair = Self.randomEdits(seed: seed, wordEdits: true)
            let (base, edited) = (pair.base.text, pair.local.text)
            #expect(
                ThreeWayMerge.merge(base: base, local: base, server: edited) == .clean(edited), "seed \(seed)"
            )
            #expect(
                ThreeWayMerge.merge(base: base, local: edited, server: base) == .clean(edited), "seed \(seed)"
            )
        }
    }

    @Test func mergingATextWithItselfChangesNothing() async {
        for seed in 0..<UInt64(Self.rounds) {
            if seed % 64 == 0 { await Task.yield() }  // share the two pool threads with other tests
            let pair = Self.randomEdits(seed: seed, wordEdits: true)
            let (base, edited) = (pair.base.text, pair.local.text)
            #expect(
                ThreeWayMerge.merge(base: edited, local: edited, server: edited) == .clean(edited),
                "seed \(seed)")
            #expect(
                ThreeWayMerge.merge(base: base, local: edited, server: edited) == .clean(edited),
                "seed \(seed)")
        }
    }

    @Test func sameInputGivesSameOutput() async {
        for seed in 0..<UInt64(Self.rounds) {
            if seed % 64 == 0 { await Task.yield() }  // share the two pool threads with other tests
            let pair = Self.randomEdits(seed: seed, wordEdits: true)
            #expect(pair.merge() == pair.merge(), "seed \(seed)")
        }
    }

    @Test(arguments: [false, true])
    func swappingSidesKeepsCleanOrClash(wordEdits: Bool) async {
        for seed in 0..<UInt64(Self.rounds) {
            if seed % 64 == 0 { await Task.yield() }  // share the two pool threads with other tests
            let pair = Self.randomEdits(seed: seed, wordEdits: wordEdits)
            let swapped = ThreeWayMerge.merge(
                base: pair.base.text, local: pair.server.text, server: pair.local.text)
            #expect((pair.merge() == .clash) == (swapped == .clash), "seed \(seed)")
        }
    }

    @Test func everyLineEitherSideAddedAppearsExactlyOnce() async {
        var clean = 0
        for seed in 0..<UInt64(Self.rounds) {
            if seed % 64 == 0 { await Task.yield() }  // share the two pool threads with other tests
            let pair = Self.randomEdits(seed: seed, wordEdits: false)
            guard case .clean(let merged) = pair.merge() else { continue }
            clean += 1
            let baseLines = Set(Self.lines(pair.base.text))
            let mergedLines = Self.lines(merged)
            for side in [pair.local.text, pair.server.text] {
                for line in Self.lines(side) where !baseLines.contains(line) {
                    #expect(mergedLines.count { $0 == line } == 1, "seed \(seed): \(line)")
                }
            }
        }
        #expect(clean > Self.rounds / 4, "too few clean merges to say much: \(clean)")
    }

    @Test(arguments: [false, true])
    func baseTextBothSidesKeptStaysInOrder(wordEdits: Bool) async {
        func unit(_ text: String) -> [Substring] { wordEdits ? Self.words(text) : Self.lines(text) }
        for seed in 0..<UInt64(Self.rounds) {
            if seed % 64 == 0 { await Task.yield() }  // share the two pool threads with other tests
            let pair = Self.randomEdits(seed: seed, wordEdits: wordEdits)
            guard case .clean(let merged) = pair.merge() else { continue }
            let local = Set(unit(pair.local.text))
            let server = Set(unit(pair.server.text))
            let keptByBoth = unit(pair.base.text).filter { local.contains($0) && server.contains($0) }
            #expect(Self.isSubsequence(keptByBoth, of: unit(merged)), "seed \(seed)")
        }
    }

    @Test func everyWordInAMergeWasWrittenOnceBySomeone() async {
        var clean = 0
        var clash = 0
        for seed in 0..<UInt64(Self.rounds) {
            if seed % 64 == 0 { await Task.yield() }  // share the two pool threads with other tests
            let pair = Self.randomEdits(seed: seed, wordEdits: true)
            guard case .clean(let merged) = pair.merge() else {
                clash += 1
                continue
            }
            clean += 1
            let baseWords = Set(Self.words(pair.base.text))
            let mergedWords = Self.words(merged)
            // Never doubled: every word is unique in the inputs, so it is unique in the merge.
            #expect(Set(mergedWords).count == mergedWords.count, "seed \(seed)")
            // Never invented, never lost: each word a side added is there exactly once.
            let written = baseWords.union(Self.words(pair.local.text)).union(Self.words(pair.server.text))
            #expect(mergedWords.allSatisfy { written.contains($0) }, "seed \(seed)")
            for side in [pair.local.text, pair.server.text] {
                for word in Self.words(side) where !baseWords.contains(word) {
                    #expect(mergedWords.contains(word), "seed \(seed): \(word)")
                }
            }
        }
        #expect(clean > Self.rounds / 4, "too few clean merges to say much: \(clean)")
        #expect(clash > 0, "no clash at all: the cases do not reach the hard part")
    }
}
