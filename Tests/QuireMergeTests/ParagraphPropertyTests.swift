import QuireMerge
import Testing

/// Long offline divergence: one side adds, removes or moves whole paragraphs and edits words in
/// several, the other edits words in one paragraph. Blank lines separate the paragraphs, so a line
/// diff can pair them across paragraphs; a clean merge must still put every word where it was
/// typed. A failure names its seed; `edits(seed:)` with that seed replays it.
struct ParagraphPropertyTests {
    static let rounds = 3_000

    /// The base, local and server texts of one seeded case, and what each side typed where.
    struct EditPair {
        let seed: UInt64
        let base: String
        let local: String
        let server: String
        let typed: [(word: String, tag: String)]
    }

    /// The side that reshuffles is local for even seeds and the server for odd ones.
    static func edits(seed: UInt64) -> EditPair {
        var random = SplitMix64(seed: seed)
        let base = ParagraphNote.base(maxParagraphs: 8, using: &random)
        var reshuffler = ParagraphEditor(side: "R")
        var editor = ParagraphEditor(side: "E")
        let reshuffled = reshuffler.reshuffle(base, maxEdits: 6, using: &random).text
        let edited = editor.editOneParagraph(base, maxEdits: 3, using: &random).text
        let (local, server) = seed.isMultiple(of: 2) ? (reshuffled, edited) : (edited, reshuffled)
        return EditPair(
            seed: seed, base: base.text, local: local, server: server, typed: reshuffler.typed + editor.typed)
    }

    static func words(_ line: Substring) -> Set<Substring> {
        Set(line.split(whereSeparator: { $0 == " " || $0 == "." || $0 == "\n" }))
    }

    @Test func everyTypedWordStaysInTheParagraphItWasTypedIn() async {
        var clean = 0
        for seed in 0..<UInt64(Self.rounds) {
            if seed % 64 == 0 { await Task.yield() }  // share the two pool threads with other tests
            let pair = Self.edits(seed: seed)
            guard case .clean(let merged) = ThreeWayMerge.merge(base: pair.base, local: pair.local, server: pair.server)
            else { continue }
            clean += 1
            let lines = merged.split(separator: "\n").map(Self.words)
            // A word typed and then deleted again (retyped, or its paragraph removed) is not looked for.
            let kept = Self.words(pair.local[...]).union(Self.words(pair.server[...]))
            for (word, tag) in pair.typed where kept.contains(Substring(word)) {
                let holding = lines.filter { $0.contains(Substring(word)) }
                #expect(holding.count == 1, "seed \(seed): \(word) is on \(holding.count) lines")
                #expect(
                    holding.allSatisfy { $0.contains(Substring(tag)) },
                    "seed \(seed): \(word) was typed into \(tag)\nbase:\n\(pair.base)\nlocal:\n\(pair.local)\nserver:\n\(pair.server)\nmerged:\n\(merged)"
                )
            }
        }
        #expect(clean > Self.rounds / 4, "too few clean merges to say much: \(clean)")
        print("paragraph merges: \(clean) of \(Self.rounds) clean")
    }
}
