import QuireMerge
import Testing

/// One named merge and the answer it must give.
struct MergeCase: CustomTestStringConvertible, Sendable {
    let name: String
    let base: String
    let local: String
    let server: String
    let expected: MergeResult

    var testDescription: String { name }
}

/// "e" followed by a combining acute accent: one `Character`, two scalars.
private let decomposedE = "e\u{301}"

/// Five paragraphs separated by blank lines; one side adds a paragraph on top, edits three and
/// removes the fourth, the other side adds a sentence to the second.
private enum Paragraphs {
    static let base = lines(
        "Alpha one is here.", "Bravo two is here.", "Charlie three is here.", "Delta four is here.",
        "Echo five is here.")
    static let reshuffled = lines(
        "New zero is here.", "Alpha one is here now.", "Bravo two is here now.", "Charlie three is here now.",
        "Echo five is here.")
    static let bravoEdited = lines(
        "Alpha one is here.", "Bravo two is here. Really!", "Charlie three is here.", "Delta four is here.",
        "Echo five is here.")
    static let merged = lines(
        "New zero is here.", "Alpha one is here now.", "Bravo two is here now. Really!",
        "Charlie three is here now.", "Echo five is here.")

    /// The paragraphs joined by blank lines, ending with a line break.
    static func lines(_ paragraphs: String...) -> String { paragraphs.joined(separator: "\n\n") + "\n" }
}

private let cases: [MergeCase] = [
    // Lines
    MergeCase(
        name: "edits to different lines combine", base: "a\nb\nc\nd\n",
        local: "A\nb\nc\nd\n", server: "a\nb\nc\nD\n", expected: .clean("A\nb\nc\nD\n")),
    MergeCase(
        name: "edits to adjacent lines combine", base: "a\nb\nc\n",
        local: "a\nB1\nc\n", server: "a\nb\nC2\n", expected: .clean("a\nB1\nC2\n")),
    MergeCase(
        name: "the same change on both sides counts once", base: "a\nb\nc\n",
        local: "a\nX\nc\n", server: "a\nX\nc\nd\n", expected: .clean("a\nX\nc\nd\n")),
    MergeCase(
        name: "one line changed at different words combines", base: "the quick brown fox\n",
        local: "the slow brown fox\n", server: "the quick brown cat\n",
        expected: .clean("the slow brown cat\n")),
    MergeCase(
        name: "one word changed differently on both sides clashes", base: "the quick brown fox\n",
        local: "the slow brown fox\n", server: "the fast brown fox\n", expected: .clash),
    MergeCase(
        name: "overlapping line regions with overlapping words clash", base: "a\nb\nc\nd\n",
        local: "a\nB\nC\nd\n", server: "a\nb\nc2\nd2\n", expected: .clash),
    MergeCase(
        name: "overlapping line regions with disjoint words combine", base: "one two\nthree four\n",
        local: "ONE two\nthree FOUR\n", server: "one TWO\nTHREE four\n",
        expected: .clean("ONE TWO\nTHREE FOUR\n")),
    MergeCase(
        name: "a title edited at both ends combines", base: "Groceries",
        local: "Groceries (Sat)", server: "Weekly Groceries", expected: .clean("Weekly Groceries (Sat)")),

    MergeCase(
        name: "two texts rewritten entirely clash", base: "a b\nc d\n",
        local: "e f\ng h\n", server: "i j\nk l\n", expected: .clash),

    // Insertions at one place: the server's lines first, then the local ones
    MergeCase(
        name: "both add at the start: both kept, server's first", base: "x\n",
        local: "L\nx\n", server: "S\nx\n", expected: .clean("S\nL\nx\n")),
    MergeCase(
        name: "both add in the middle: both kept, server's first", base: "a\nb\n",
        local: "a\nL\nb\n", server: "a\nS\nb\n", expected: .clean("a\nS\nL\nb\n")),
    MergeCase(
        name: "both add at the end: both kept, server's first", base: "a\n",
        local: "a\nL\n", server: "a\nS\n", expected: .clean("a\nS\nL\n")),
    MergeCase(
        name: "different words typed at one spot of a line clash, never join", base: "milk\neggs\n",
        local: "oat milk\neggs\n", server: "whole milk\neggs\n", expected: .clash),
    MergeCase(
        name: "different endings typed onto one line clash", base: "Buy milk\n",
        local: "Buy milk, eggs\n", server: "Buy milk, bread\n", expected: .clash),
    MergeCase(
        name: "both add after a last line without line break", base: "a\nb",
        local: "a\nb\nL", server: "a\nb\nS", expected: .clean("a\nb\nS\nL")),
    MergeCase(
        name: "an addition that extends the other side's is kept once", base: "a\n",
        local: "a\nL\n", server: "a\nL\nM\n", expected: .clean("a\nL\nM\n")),
    MergeCase(
        name: "an addition without line break goes after one with", base: "a\n",
        local: "a\nL\n", server: "a\nS", expected: .clean("a\nL\nS")),
    MergeCase(
        name: "two additions without line break at the end clash", base: "a\n",
        local: "a\nL", server: "a\nS", expected: .clash),
    MergeCase(
        name: "a last line edited against a line appended after it", base: "a\nb",
        local: "a\nB", server: "a\nb\nc", expected: .clean("a\nB\nc")),
    // Found by the merge fuzz target (scripts/fuzz.sh): a side that edits the last line and
    // leaves it without its line break, against lines the other side appended after it, fused
    // the two into one line ("fix-three", "- milk and eggs- bread") or ate an appended blank line.
    MergeCase(
        name: "a last line edited without its line break against a line appended after it clashes, never fuses",
        base: "two\n", local: "fix", server: "two\n-three\n", expected: .clash),
    MergeCase(
        name: "a list item extended without its line break against an item added after it clashes",
        base: "Shopping:\n- milk\n", local: "Shopping:\n- milk and eggs", server: "Shopping:\n- milk\n- bread\n",
        expected: .clash),
    MergeCase(
        name: "a blank line appended after a last line the other side edited without its line break is not lost",
        base: "one\ntwo\n", local: "one\nfix", server: "one\ntwo\n\nthree\n", expected: .clash),
    MergeCase(
        name: "the fuzzer's own input: an open line never fuses with the other side's next line",
        base: "one\ntwoh cat q\n", local: "one\n2\u{FFFD}",
        server: "one\nze\ntwoh cat q\n\u{0}one\n2\u{FFFD}\u{0}one\nwei\n", expected: .clash),
    // Found by the merge fuzz target: a side's line that begins with a combining mark, set by the
    // word-level merge right after the other side's text, combined with that text's last
    // character ("\u{FFFD}" + U+06E1 became one character, leaving a word "ng" nobody typed).
    MergeCase(
        name: "a combining mark at the start of one side's change never combines with the other side's text",
        base: "x\ny", local: "x\n\u{06E1}ng\u{FFFD}", server: "\u{FFFD}Rang\u{FFFD}y", expected: .clash),
    MergeCase(
        name: "an accent typed at the start of a line the other side joined to the line above clashes",
        base: "Rome\nday", local: "Rome\n\u{301}day two", server: "Rome, day", expected: .clash),
    // Found by the merge fuzz target (stop 29): two insertions at one point, both starting a new
    // line, are both kept, one after the other; set the side ending in "\r" before the side
    // starting with "\n", and the two make one character ("\r\n") that neither side wrote, which
    // clashed one way round only. A carriage return now glues to a line feed, so the other order
    // is taken whichever side is whose.
    MergeCase(
        name: "a carriage return at the end of one side's lines never joins the other side's line feed",
        base: "", local: "\n" + String(repeating: "\u{FFFD}", count: 8) + "\u{0C}", server: "\n\r",
        expected: .clean("\n" + String(repeating: "\u{FFFD}", count: 8) + "\u{0C}\n\r")),

    // Paragraphs added, removed or moved: blank lines must not pair across paragraphs (issue 9, defect 14)
    MergeCase(
        name: "a paragraph added above, one removed below: the edit stays in its paragraph",
        base: Paragraphs.base, local: Paragraphs.reshuffled, server: Paragraphs.bravoEdited,
        expected: .clean(Paragraphs.merged)),
    MergeCase(
        name: "a paragraph edited against paragraphs added and removed: the edit stays in its paragraph",
        base: Paragraphs.base, local: Paragraphs.bravoEdited, server: Paragraphs.reshuffled,
        expected: .clean(Paragraphs.merged)),

    // Deletions
    MergeCase(
        name: "a deletion against an edit of that line clashes", base: "a\nb\nc\n",
        local: "a\nc\n", server: "a\nb changed\nc\n", expected: .clash),
    MergeCase(
        name: "an edit against a deletion of that line clashes", base: "a\nb\nc\n",
        local: "a\nb changed\nc\n", server: "a\nc\n", expected: .clash),
    MergeCase(
        name: "a deletion of untouched lines deletes them", base: "a\nb\nc\nd\n",
        local: "a\nc\nd\n", server: "a\nb\nc\nD\n", expected: .clean("a\nc\nD\n")),
    MergeCase(
        name: "a deletion next to an edited line combines", base: "a\nb\nc\nd\n",
        local: "a\nc\nd\n", server: "a\nb\nC\nd\n", expected: .clean("a\nC\nd\n")),
    MergeCase(
        name: "overlapping deletions delete both ranges", base: "a\nb\nc\nd\n",
        local: "a\nd\n", server: "a\nb\n", expected: .clean("a\n")),
    MergeCase(
        name: "a word typed before a word the other side deleted clashes", base: "a b c\n",
        local: "a c\n", server: "a (b c\n", expected: .clash),

    // Empty base: two insertions at one point
    MergeCase(
        name: "empty base, both wrote lines: both kept, server's first", base: "",
        local: "milk\n", server: "bread\n", expected: .clean("bread\nmilk\n")),
    MergeCase(
        name: "empty base, both wrote one unbroken line: clash", base: "",
        local: "hello", server: "world", expected: .clash),
    MergeCase(
        name: "empty base, the same text on both sides", base: "",
        local: "same", server: "same", expected: .clean("same")),

    // Bytes kept exactly
    MergeCase(
        name: "CRLF line endings are kept", base: "a\r\nb\r\nc\r\n",
        local: "A\r\nb\r\nc\r\n", server: "a\r\nb\r\nC\r\n", expected: .clean("A\r\nb\r\nC\r\n")),
    MergeCase(
        name: "CRLF line endings are kept by the word retry", base: "one two\r\nthree\r\n",
        local: "ONE two\r\nthree\r\n", server: "one TWO\r\nthree\r\n",
        expected: .clean("ONE TWO\r\nthree\r\n")),
    MergeCase(
        name: "emoji and combining characters stay whole", base: "caf\(decomposedE) 👍🏽 ok\n",
        local: "caf\(decomposedE) 👍🏽 fine\n", server: "caf\(decomposedE) 👨‍👩‍👧 ok\n",
        expected: .clean("caf\(decomposedE) 👨‍👩‍👧 fine\n")),
    MergeCase(
        name: "one emoji changed differently on both sides clashes", base: "hi 👍\n",
        local: "hi 👍🏽\n", server: "hi 👍🏿\n", expected: .clash),
    MergeCase(
        name: "an accent added to a word combines with punctuation after it", base: "resume\n",
        local: "r\(decomposedE)sum\(decomposedE)\n", server: "resume!\n",
        expected: .clean("r\(decomposedE)sum\(decomposedE)!\n")),
    MergeCase(
        name: "a respelled accent is a change and is kept byte for byte", base: "caf\u{E9}\n",
        local: "caf\(decomposedE)\n", server: "caf\u{E9}!\n", expected: .clean("caf\(decomposedE)!\n")),
    MergeCase(
        name: "both respelling one word differently clashes", base: "caf\u{E9}\n",
        local: "caf\(decomposedE)\n", server: "cafe\n", expected: .clash),
]

struct MergeCaseTests {
    @Test(arguments: cases)
    func mergeGivesExpectedResult(_ testCase: MergeCase) {
        let result = ThreeWayMerge.merge(base: testCase.base, local: testCase.local, server: testCase.server)
        // `String` equality is canonical equivalence; the merge promises the exact bytes.
        switch (result, testCase.expected) {
        case (.clean(let merged), .clean(let expected)):
            #expect(Array(merged.utf8) == Array(expected.utf8), "got \(merged.debugDescription)")
        default:
            #expect(result == testCase.expected)
        }
    }

    @Test(arguments: cases)
    func swappingSidesKeepsCleanOrClash(_ testCase: MergeCase) {
        let result = ThreeWayMerge.merge(base: testCase.base, local: testCase.server, server: testCase.local)
        #expect((result == .clash) == (testCase.expected == .clash))
    }

    @Test func oneVeryLongLineMergesWordByWord() {
        let words = (0..<5_000).map { "word\($0)" }
        let base = words.joined(separator: " ")
        var local = words
        var server = words
        local[10] = "LOCAL"
        server[4_990] = "SERVER"
        var expected = words
        expected[10] = "LOCAL"
        expected[4_990] = "SERVER"

        let result = ThreeWayMerge.merge(
            base: base, local: local.joined(separator: " "), server: server.joined(separator: " "))

        #expect(result == .clean(expected.joined(separator: " ")))
    }

    @Test func oneMegabyteNoteWithEditsFarApartMerges() {
        let lines = (0..<25_000).map { "line \($0) of a long note, with some words\n" }
        let base = lines.joined()
        #expect(base.utf8.count > 1_000_000)
        var local = lines
        var server = lines
        var expected = lines
        local[100] = "changed here\n"
        local.insert("added here\n", at: 20_000)
        server[24_000] = "changed there\n"
        expected[100] = "changed here\n"
        expected[24_000] = "changed there\n"
        expected.insert("added here\n", at: 20_000)

        let clock = ContinuousClock()
        var result = MergeResult.clash
        let elapsed = clock.measure {
            result = ThreeWayMerge.merge(base: base, local: local.joined(), server: server.joined())
        }

        #expect(result == .clean(expected.joined()))
        print("1 MB note, edits far apart: \(elapsed)")
    }
}
