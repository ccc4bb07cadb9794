/// The words of one line merge's three texts (word tokens only: see `TextUnits.Granularity`),
/// with one symbol table for all, each line tokenized when first asked for; and how often each
/// word appears around the lines compared (`Neighbourhood`), so that how rare a word is
/// (`WordOverlap`) is judged over the surrounding text, not over the few lines compared: "a"
/// found in every paragraph is common even where a line holds it once.
///
/// A class so that the rules' closures of one merge share it; used by that merge alone, on one
/// thread.
final class NoteWords {
    /// Lines counted on each side of the lines compared: all of a short note, and in a long one
    /// some eight paragraphs each way, where a paragraph moved nearby or a common word shows
    /// itself, without counting a megabyte for every question.
    static let radius = 16

    private let texts: [MergeSource: TextUnits]
    private var table = SymbolTable()
    private var wordsOnLine: [MergeSource: [Int: [Int]]] = [:]

    init(base: TextUnits, local: TextUnits, server: TextUnits) {
        texts = [.base: base, .local: local, .server: server]
    }

    /// The words (word tokens only) of lines `lines` of `source`, and the line each one is on.
    func words(of source: MergeSource, lines: Range<Int>) -> LineWords {
        var words = LineWords(firstLine: lines.lowerBound)
        for line in lines {
            let symbols = self.words(of: source, line: line)
            words.symbols += symbols
            words.lines += repeatElement(line, count: symbols.count)
            words.starts.append(words.symbols.count)
        }
        return words
    }

    /// The words counted over `radius` lines around the base's `baseLines` and around `side`'s
    /// `sideLines`.
    func around(_ baseLines: Range<Int>, _ side: MergeSource, _ sideLines: Range<Int>) -> Neighbourhood {
        var counts: [MergeSource: [Int: Int]] = [:]
        var lineOfWord: [MergeSource: [Int: Int]] = [:]
        for (source, lines) in [(MergeSource.base, baseLines), (side, sideLines)] {
            let lineCount = texts[source]!.symbols.count
            let near = max(0, lines.lowerBound - Self.radius)..<min(lineCount, lines.upperBound + Self.radius)
            var count: [Int: Int] = [:]
            var lineOf: [Int: Int] = [:]
            for line in near {
                for symbol in words(of: source, line: line) {
                    count[symbol, default: 0] += 1
                    lineOf[symbol] = line
                }
            }
            counts[source] = count
            lineOfWord[source] = lineOf.filter { count[$0.key] == 1 }
        }
        return Neighbourhood(side: side, counts: counts, lineOfWord: lineOfWord)
    }

    private func words(of source: MergeSource, line: Int) -> [Int] {
        if let words = wordsOnLine[source]?[line] { return words }
        var words: [Int] = []
        let bytes = texts[source]!.span(line..<(line + 1))
        TextUnits.forEachWordToken(in: bytes) { range, isWord in
            if isWord { words.append(table.intern(bytes[range], flag: true)) }
        }
        wordsOnLine[source, default: [:]][line] = words
        return words
    }
}

/// How often each word appears around the lines compared, in the base and in one side.
struct Neighbourhood {
    let side: MergeSource
    fileprivate let counts: [MergeSource: [Int: Int]]
    fileprivate let lineOfWord: [MergeSource: [Int: Int]]

    /// How many times word `symbol` appears around the lines compared in `source`.
    func count(of symbol: Int, in source: MergeSource) -> Int { counts[source]?[symbol] ?? 0 }

    /// The line of `source` holding word `symbol`, for a word found there exactly once.
    func line(holding symbol: Int, in source: MergeSource) -> Int? { lineOfWord[source]?[symbol] }

    /// Word weights for comparing the base with the side.
    var overlap: WordOverlap { WordOverlap(baseCounts: counts[.base]!, sideCounts: counts[side]!) }
}

/// The words of consecutive lines, and the line each one is on.
struct LineWords {
    let firstLine: Int
    var symbols: [Int] = []
    var lines: [Int] = []
    /// Line `firstLine + i` holds `symbols[starts[i]..<starts[i + 1]]`.
    var starts = [0]

    func symbols(onLine line: Int) -> ArraySlice<Int> {
        symbols(onLines: line..<(line + 1))
    }

    func symbols(onLines lines: Range<Int>) -> ArraySlice<Int> {
        symbols[starts[lines.lowerBound - firstLine]..<starts[lines.upperBound - firstLine]]
    }
}
