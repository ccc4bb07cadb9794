/// Which changed lines of a base and a side are one line edited: those that share a word found
/// exactly once in each text around them (`NoteWords.radius`), in the same order on both sides,
/// and share most of their words besides (`WordOverlap`).
///
/// The line diff asks only where no line is unique to both (`AnchoredDiff`). Two devices: one adds
/// a paragraph on top, edits the next three and deletes one, so no paragraph line is left as it
/// was and only the blank lines between them match. "Alpha one is here." and "Alpha one is here
/// now." share "Alpha" and "one", found once in each, and all their words, so they are one line
/// edited, and the blank lines then pair between the paragraphs they separate, not across them.
/// A new paragraph written where an old one was deleted shares a word or two by chance: not
/// enough.
enum LineCorrespondence {
    /// Pairs `(base line, side line)` among `baseLines` and `side`'s `sideLines`, increasing in
    /// both: of the pairs that share a word found once around the stretch in the base and once in
    /// the side, are alike, and whose lines are alike to no other line, the chain sharing the most
    /// such words.
    static func pairs(
        _ words: NoteWords, _ baseLines: Range<Int>, _ side: MergeSource, _ sideLines: Range<Int>
    ) -> [(x: Int, y: Int)] {
        let baseWords = words.words(of: .base, lines: baseLines)
        let sideWords = words.words(of: side, lines: sideLines)
        // Found once around the stretch means found once in it: that is checked first, and the
        // text around is counted only if some word passes.
        var inStretches: [Int: (base: Int, side: Int)] = [:]
        for symbol in baseWords.symbols { inStretches[symbol, default: (0, 0)].base += 1 }
        for symbol in sideWords.symbols { inStretches[symbol, default: (0, 0)].side += 1 }
        guard inStretches.values.contains(where: { $0 == (1, 1) }) else { return [] }
        let near = words.around(baseLines, side, sideLines)
        var lineInSide: [Int: Int] = [:]
        for (symbol, line) in zip(sideWords.symbols, sideWords.lines)
        where inStretches[symbol]! == (1, 1) && near.count(of: symbol, in: side) == 1
            && near.count(of: symbol, in: .base) == 1
        {
            lineInSide[symbol] = line
        }
        // Line pairs sharing a word found once on each side, and how many such words each shares.
        var shared: [Pair: Int] = [:]
        for (symbol, line) in zip(baseWords.symbols, baseWords.lines) {
            guard let sideLine = lineInSide[symbol] else { continue }
            shared[Pair(x: line, y: sideLine), default: 0] += 1
        }
        let overlap = near.overlap
        var alike = shared.filter { pair, _ in
            overlap.alike(baseWords.symbols(onLine: pair.x), sideWords.symbols(onLine: pair.y))
        }
        // A line alike to two lines of the other side was split or joined: none of the halves is
        // the line edited, so it pairs with none (the shortest edit script takes them together).
        let baseCounts = Dictionary(alike.keys.map { ($0.x, 1) }, uniquingKeysWith: +)
        let sideCounts = Dictionary(alike.keys.map { ($0.y, 1) }, uniquingKeysWith: +)
        alike = alike.filter { pair, _ in baseCounts[pair.x] == 1 && sideCounts[pair.y] == 1 }
        let candidates = alike.sorted { ($0.key.x, $0.key.y) < ($1.key.x, $1.key.y) }
        return heaviestChain(candidates.map { ($0.key, $0.value) }).map { ($0.x, $0.y) }
    }

    /// True when `side`'s lines `sideLines`, which replace the base's `baseLines`, are those lines
    /// edited: starting or ending with the same word, or alike (`WordOverlap`), as many lines of
    /// one against as many of the other. A line that kept
    /// its start ("That was wrong." with its second sentence retyped) or its end is that line
    /// edited, though the words retyped were its rarest; a paragraph written where another was
    /// deleted keeps neither, nor most of its words.
    static func isEdit(
        _ words: NoteWords, _ baseLines: Range<Int>, _ side: MergeSource, _ sideLines: Range<Int>
    ) -> Bool {
        let baseWords = words.words(of: .base, lines: baseLines)
        let sideWords = words.words(of: side, lines: sideLines)
        // Without a word on either side ("^ " made "& $|$ & ") there is no telling.
        guard let first = baseWords.symbols.first, let last = baseWords.symbols.last, !sideWords.symbols.isEmpty
        else { return true }
        if first == sideWords.symbols.first || last == sideWords.symbols.last { return true }
        // Where one side has more lines, the edited lines are some of them, not all together:
        // two paragraphs written in place of one hold many of its common words between them.
        let overlap = words.around(baseLines, side, sideLines).overlap
        let span = min(baseLines.count, sideLines.count)
        for baseStart in baseLines.lowerBound...(baseLines.upperBound - span) {
            for sideStart in sideLines.lowerBound...(sideLines.upperBound - span) {
                let baseWindow = baseWords.symbols(onLines: baseStart..<(baseStart + span))
                let sideWindow = sideWords.symbols(onLines: sideStart..<(sideStart + span))
                if overlap.alike(baseWindow, sideWindow) { return true }
            }
        }
        return false
    }

    /// True when a line of `side`'s `sideLines` and a base line outside `baseLines`, or a line of
    /// `baseLines` and a side line outside `sideLines`, share a word found once around them in each
    /// text and are alike: the line moved across the edge of the region (a paragraph moved and edited).
    static func movesAcross(
        _ words: NoteWords, _ baseLines: Range<Int>, _ side: MergeSource, _ sideLines: Range<Int>
    ) -> Bool {
        // A line moved in or out changes how many lines the region holds on that side.
        guard baseLines.count != sideLines.count else { return false }
        let inside = words.words(of: side, lines: sideLines)
        let insideBase = words.words(of: .base, lines: baseLines)
        let near = words.around(baseLines, side, sideLines)
        let overlap = near.overlap
        func uniqueWords(_ symbols: [Int], _ lines: [Int]) -> [(symbol: Int, line: Int)] {
            zip(symbols, lines).filter { near.count(of: $0.0, in: .base) == 1 && near.count(of: $0.0, in: side) == 1 }
                .map { ($0.0, $0.1) }
        }
        // A line alike to a line on its own side of the edge stayed, edited (with a sentence
        // moved into it, perhaps); only one alike to none there moved.
        for (symbol, line) in uniqueWords(inside.symbols, inside.lines) {
            guard let other = near.line(holding: symbol, in: .base), !baseLines.contains(other) else { continue }
            let outside = words.words(of: .base, lines: other..<(other + 1))
            let moved = inside.symbols(onLine: line)
            if overlap.alike(outside.symbols[...], moved)
                && !baseLines.contains(where: { overlap.alike(insideBase.symbols(onLine: $0), moved) })
            {
                return true
            }
        }
        for (symbol, line) in uniqueWords(insideBase.symbols, insideBase.lines) {
            guard let other = near.line(holding: symbol, in: side), !sideLines.contains(other) else { continue }
            let outside = words.words(of: side, lines: other..<(other + 1))
            let moved = insideBase.symbols(onLine: line)
            if overlap.alike(moved, outside.symbols[...])
                && !sideLines.contains(where: { overlap.alike(moved, inside.symbols(onLine: $0)) })
            {
                return true
            }
        }
        return false
    }

    /// The chain of pairs increasing in both lines with the most shared words (ties: the first).
    private static func heaviestChain(_ candidates: [(pair: Pair, weight: Int)]) -> [Pair] {
        guard !candidates.isEmpty else { return [] }
        // Few pairs: a stretch without one line unique to both is small, and its lines few.
        var best = candidates.map(\.weight)
        var previous = Array(repeating: -1, count: candidates.count)
        for index in candidates.indices {
            for earlier in 0..<index
            where candidates[earlier].pair.x < candidates[index].pair.x
                && candidates[earlier].pair.y < candidates[index].pair.y
                && best[earlier] + candidates[index].weight > best[index]
            {
                best[index] = best[earlier] + candidates[index].weight
                previous[index] = earlier
            }
        }
        var index = best.indices.max { best[$0] < best[$1] || (best[$0] == best[$1] && $0 > $1) }!
        var chain: [Pair] = []
        while index >= 0 {
            chain.append(candidates[index].pair)
            index = previous[index]
        }
        return chain.reversed()
    }
}

private struct Pair: Hashable {
    let x: Int
    let y: Int
}
