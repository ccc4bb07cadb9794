/// A random note for property tests: lines of words, every word unique, so a test can tell
/// exactly which words and lines came from the base and which side added them.
struct RandomNote {
    var lines: [[String]]
    /// False when the last line has no line break.
    var endsWithBreak: Bool

    /// The note as text: words joined by spaces, lines by "\n".
    var text: String {
        var text = lines.map { $0.joined(separator: " ") }.joined(separator: "\n")
        if endsWithBreak && !lines.isEmpty { text += "\n" }
        return text
    }

    /// A base of 0 to `maxLines` lines of 1 to 4 words named "b<line>w<word>".
    static func base(maxLines: Int, using random: inout SplitMix64) -> RandomNote {
        let count = Int.random(in: 0...maxLines, using: &random)
        let lines = (0..<count).map { line in
            (0..<Int.random(in: 1...4, using: &random)).map { "b\(line)w\($0)" }
        }
        return RandomNote(lines: lines, endsWithBreak: Int.random(in: 0..<4, using: &random) != 0)
    }
}

/// One side's random edits: every word it writes is new and unique ("<side><n>").
struct RandomEditor {
    let side: String
    private var written = 0

    init(side: String) { self.side = side }

    private mutating func freshWord() -> String {
        written += 1
        return "\(side)\(written)"
    }

    private mutating func freshLine(using random: inout SplitMix64) -> [String] {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in freshWord() }
    }

    /// Applies 1 to `maxEdits` edits of whole lines: insert a new line, delete one, replace one.
    mutating func editLines(_ note: RandomNote, maxEdits: Int, using random: inout SplitMix64) -> RandomNote {
        var note = note
        for _ in 0..<Int.random(in: 1...maxEdits, using: &random) {
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                note.lines.insert(
                    freshLine(using: &random), at: Int.random(in: 0...note.lines.count, using: &random))
            case 1 where !note.lines.isEmpty:
                note.lines.remove(at: Int.random(in: 0..<note.lines.count, using: &random))
            default:
                guard !note.lines.isEmpty else { continue }
                note.lines[Int.random(in: 0..<note.lines.count, using: &random)] = freshLine(using: &random)
            }
        }
        return note
    }

    /// Applies 1 to `maxEdits` edits of words or lines: insert, delete or replace a word inside a
    /// line, or any of the line edits.
    mutating func editWords(_ note: RandomNote, maxEdits: Int, using random: inout SplitMix64) -> RandomNote {
        var note = note
        for _ in 0..<Int.random(in: 1...maxEdits, using: &random) {
            guard !note.lines.isEmpty, Int.random(in: 0..<4, using: &random) != 0 else {
                note = editLines(note, maxEdits: 1, using: &random)
                continue
            }
            let line = Int.random(in: 0..<note.lines.count, using: &random)
            let words = note.lines[line].count
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                note.lines[line].insert(freshWord(), at: Int.random(in: 0...words, using: &random))
            case 1 where words > 1:
                note.lines[line].remove(at: Int.random(in: 0..<words, using: &random))
            default:
                note.lines[line][Int.random(in: 0..<words, using: &random)] = freshWord()
            }
        }
        return note
    }
}
