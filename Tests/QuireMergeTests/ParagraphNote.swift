/// A random note of paragraphs for property tests: each paragraph is one line, paragraphs are
/// separated by blank lines, and each starts with a tag word found nowhere else ("Tag3"), followed
/// by words from a small shared vocabulary, so that paragraphs look alike to a diff, as prose does.
struct ParagraphNote {
    /// Each paragraph's words, its tag first.
    var paragraphs: [[String]]

    static let vocabulary = ["is", "here", "the", "a", "of", "and", "to", "it", "now", "was"]

    /// The note as text: words joined by spaces, a full stop after each paragraph, paragraphs
    /// joined by blank lines, a line break at the end.
    var text: String {
        paragraphs.map { $0.joined(separator: " ") + "." }.joined(separator: "\n\n") + "\n"
    }

    /// A base of 3 to `maxParagraphs` paragraphs, tagged "Tag0", "Tag1", ...
    static func base(maxParagraphs: Int, using random: inout SplitMix64) -> ParagraphNote {
        let count = Int.random(in: 3...maxParagraphs, using: &random)
        return ParagraphNote(paragraphs: (0..<count).map { ["Tag\($0)"] + sharedWords(using: &random) })
    }

    static func sharedWords(using random: inout SplitMix64) -> [String] {
        (0..<Int.random(in: 2...6, using: &random)).map { _ in vocabulary.randomElement(using: &random)! }
    }
}

/// One side's random edits of a `ParagraphNote`. Every word it types is new and unique
/// ("<side>w<n>"), and it remembers the tag of the paragraph each one was typed into.
struct ParagraphEditor {
    let side: String
    /// Each typed word and the tag of the paragraph it was typed into.
    private(set) var typed: [(word: String, tag: String)] = []
    private var written = 0

    init(side: String) { self.side = side }

    private mutating func freshWord(into tag: String) -> String {
        written += 1
        let word = "\(side)w\(written)"
        typed.append((word, tag))
        return word
    }

    /// Adds, removes or moves whole paragraphs and edits words in several, 2 to `maxEdits` times.
    mutating func reshuffle(_ note: ParagraphNote, maxEdits: Int, using random: inout SplitMix64) -> ParagraphNote {
        var note = note
        for _ in 0..<Int.random(in: 2...maxEdits, using: &random) {
            let count = note.paragraphs.count
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                written += 1
                let tag = "\(side)Tag\(written)"
                let paragraph = [tag] + ParagraphNote.sharedWords(using: &random) + [freshWord(into: tag)]
                note.paragraphs.insert(paragraph, at: Int.random(in: 0...count, using: &random))
            case 1 where count > 1:
                note.paragraphs.remove(at: Int.random(in: 0..<count, using: &random))
            case 2 where count > 1:
                let paragraph = note.paragraphs.remove(at: Int.random(in: 0..<count, using: &random))
                note.paragraphs.insert(paragraph, at: Int.random(in: 0...(count - 1), using: &random))
            default:
                guard count > 0 else { continue }
                editWords(in: &note.paragraphs[Int.random(in: 0..<count, using: &random)], using: &random)
            }
        }
        return note
    }

    /// Edits words in one paragraph only, 1 to `maxEdits` times.
    mutating func editOneParagraph(
        _ note: ParagraphNote, maxEdits: Int, using random: inout SplitMix64
    ) -> ParagraphNote {
        var note = note
        let index = Int.random(in: 0..<note.paragraphs.count, using: &random)
        for _ in 0..<Int.random(in: 1...maxEdits, using: &random) {
            editWords(in: &note.paragraphs[index], using: &random)
        }
        return note
    }

    /// Types a word somewhere after the tag, or deletes or retypes a shared word; never the tag.
    private mutating func editWords(in paragraph: inout [String], using random: inout SplitMix64) {
        let tag = paragraph[0]
        let words = paragraph.count
        switch Int.random(in: 0..<4, using: &random) {
        case 0 where words > 2:
            paragraph.remove(at: Int.random(in: 1..<words, using: &random))
        case 1 where words > 1:
            paragraph[Int.random(in: 1..<words, using: &random)] = freshWord(into: tag)
        default:
            paragraph.insert(freshWord(into: tag), at: Int.random(in: 1...words, using: &random))
        }
    }
}
