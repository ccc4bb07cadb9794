/// The two-level merge behind `ThreeWayMerge`: diff3 by lines, and each region both sides
/// changed retried by word tokens before it counts as a clash.
enum TextMerge {
    /// The merged bytes, or nil for a clash.
    static func lines(base: [UInt8], local: [UInt8], server: [UInt8]) -> [UInt8]? {
        merge(base, local, server, by: .lines)
    }

    /// Merges at `granularity`; a region both sides changed differently goes to the word level
    /// when merging lines, and is a clash when merging words.
    ///
    /// The line level anchors its diffs on lines that hold a word (a blank line or "}" is unique
    /// by chance), pairs a line with its edited self where no line is unique to both
    /// (`LineCorrespondence`), and hands the word level only regions no side moved a line into or
    /// out of, and where each side edited what it replaced rather than rewrote it.
    ///
    /// The word level is stricter: an insertion right beside a word the other side deleted is
    /// taken as an edit of that word, so it clashes; two different insertions at one point clash
    /// instead of being joined (joining words invents a sentence nobody wrote); a change goes only
    /// where both word diffs are sure of the place, and not right after the other side's change
    /// that starts a new line; and a merge that would set two words side by side, one word nobody
    /// typed, clashes.
    private static func merge(
        _ base: [UInt8], _ local: [UInt8], _ server: [UInt8], by granularity: TextUnits.Granularity
    ) -> [UInt8]? {
        var table = SymbolTable()
        let base = TextUnits(base, by: granularity, table: &table)
        let local = TextUnits(local, by: granularity, table: &table)
        let server = TextUnits(server, by: granularity, table: &table)
        // The line-break tokens ("\r\n" is one Character, so one token).
        let lineFeed = table.intern([0x0A][...], flag: false)
        let lineBreaks: Set<Int> = [lineFeed, table.intern([0x0D, 0x0A][...], flag: false)]
        // A carriage return set right before a line feed makes one Character with it.
        let carriageReturn = table.intern([0x0D][...], flag: false)
        let flags = table.flags
        // Tokenizes nothing until the line rules ask.
        let words = NoteWords(base: base, local: local, server: server)
        // Only a line with a word in it, or a word, may anchor the diffs.
        let rules =
            switch granularity {
            // An open line (the last, without terminator) glues to whatever follows it.
            case .lines:
                MergeRules(
                    glues: { left, _ in flags[left] }, insertionBesideDeletionClashes: false,
                    canAnchor: linesHoldingWords([base, local, server], symbolCount: flags.count),
                    isEdit: { side, baseLines, sideLines in
                        LineCorrespondence.isEdit(words, baseLines, side, sideLines)
                    },
                    movesAcross: { side, baseLines, sideLines in
                        LineCorrespondence.movesAcross(words, baseLines, side, sideLines)
                    },
                    correspondence: { side, baseLines, sideLines in
                        LineCorrespondence.pairs(words, baseLines, side, sideLines)
                    })
            // Two words glue into one, and so do a carriage return and a line feed ("\r\n", a
            // line break neither side wrote; fuzz target `merge`, MergeCaseTests).
            case .words:
                MergeRules(
                    glues: { left, right in
                        (flags[left] && flags[right]) || (left == carriageReturn && right == lineFeed)
                    },
                    insertionBesideDeletionClashes: true,
                    keepsBothInsertions: { lineBreaks.contains($0) && lineBreaks.contains($1) },
                    breaksLine: { lineBreaks.contains($0) }, canAnchor: flags, placesOnlyWhereSure: true)
            }
        let sequences = SequenceMerge(
            base: base.symbols, local: local.symbols, server: server.symbols, rules: rules)
        let pieces = sequences.merge { conflict in
            guard granularity == .lines else { return nil }
            return merge(
                Array(base.span(conflict.base)), Array(local.span(conflict.local)),
                Array(server.span(conflict.server)), by: .words)
        }
        guard let pieces else { return nil }
        // Two word tokens side by side would read as one word nobody typed ("and" + "Rw1"): a side
        // deleted the space between a word it kept and a word the other side typed.
        if granularity == .words && fusesWords(pieces, [base, local, server], flags) { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(max(local.bytes.count, server.bytes.count))
        var previous: ArraySlice<UInt8> = []
        for piece in pieces {
            let bytes: ArraySlice<UInt8> =
                switch piece {
                case .copy(.base, let units): base.span(units)
                case .copy(.local, let units): local.span(units)
                case .copy(.server, let units): server.span(units)
                case .text(let bytes): bytes[...]
                }
            // A last safety net: text after a line without terminator would join that line.
            if granularity == .lines, !bytes.isEmpty, let last = output.last, last != UInt8(ascii: "\n") {
                return nil
            }
            // A piece that begins with a combining mark (or a joiner, or half a flag) would change
            // the character before it, which the other side may have typed (MergeCaseTests).
            if granularity == .words, !bytes.isEmpty {
                if combines(previous, bytes) { return nil }
                previous = bytes
            }
            output += bytes
        }
        return output
    }

    /// True when the first character of `next` would join the last character of `previous`
    /// into one: the pieces were cut on character boundaries, so only a join can do that.
    /// Reads at most `window` bytes on each side of the join (a longer character is cut, which
    /// still shows whether the two touching characters combine).
    private static func combines(_ previous: ArraySlice<UInt8>, _ next: ArraySlice<UInt8>) -> Bool {
        let window = 64
        var tailStart = max(previous.startIndex, previous.endIndex - window)
        // Start the tail on a scalar's first byte, not inside one.
        while tailStart < previous.endIndex, previous[tailStart] & 0xC0 == 0x80 { tailStart += 1 }
        let head = next.prefix(window)
        guard let last = String(decoding: previous[tailStart...], as: UTF8.self).last,
            let first = String(decoding: head, as: UTF8.self).first
        else { return false }
        return (String(last) + String(first)).count != 2
    }

    /// For each line symbol, true when the line holds a letter, a digit, "_" or any non-ASCII
    /// character.
    private static func linesHoldingWords(_ texts: [TextUnits], symbolCount: Int) -> [Bool] {
        var holds = Array(repeating: false, count: symbolCount)
        for text in texts {
            for (index, symbol) in text.symbols.enumerated() where !holds[symbol] {
                holds[symbol] = text.span(index..<(index + 1)).contains { byte in
                    switch byte {
                    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), 0x80...:
                        true
                    default: false
                    }
                }
            }
        }
        return holds
    }

    /// True when a piece that ends with a word is followed by a piece that starts with one.
    private static func fusesWords(_ pieces: [MergePiece], _ texts: [TextUnits], _ isWord: [Bool]) -> Bool {
        var endsWithWord = false
        for piece in pieces {
            guard case .copy(let source, let units) = piece, !units.isEmpty else {
                if case .text(let bytes) = piece, !bytes.isEmpty { endsWithWord = false }
                continue
            }
            let symbols = texts[source == .base ? 0 : source == .local ? 1 : 2].symbols
            if endsWithWord && isWord[symbols[units.lowerBound]] { return true }
            endsWithWord = isWord[symbols[units.upperBound - 1]]
        }
        return false
    }
}
