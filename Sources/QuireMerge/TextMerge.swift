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
    /// The word level is stricter in two places: an insertion right beside a word the other side
    /// deleted is taken as an edit of that word, so it clashes; and two different insertions at
    /// one point clash instead of being joined (joining words invents a sentence nobody wrote).
    private static func merge(
        _ base: [UInt8], _ local: [UInt8], _ server: [UInt8], by granularity: TextUnits.Granularity
    ) -> [UInt8]? {
        var table = SymbolTable()
        let base = TextUnits(base, by: granularity, table: &table)
        let local = TextUnits(local, by: granularity, table: &table)
        let server = TextUnits(server, by: granularity, table: &table)
        // The line-break tokens ("\r\n" is one Character, so one token).
        let lineBreaks: Set<Int> = [
            table.intern([0x0A][...], flag: false), table.intern([0x0D, 0x0A][...], flag: false),
        ]
        let flags = table.flags
        let rules =
            switch granularity {
            // An open line (the last, without terminator) glues to whatever follows it.
            case .lines: MergeRules(glues: { left, _ in flags[left] }, insertionBesideDeletionClashes: false)
            // Two words glue into one.
            case .words:
                MergeRules(
                    glues: { left, right in flags[left] && flags[right] },
                    insertionBesideDeletionClashes: true,
                    keepsBothInsertions: { lineBreaks.contains($0) && lineBreaks.contains($1) })
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
        var output: [UInt8] = []
        output.reserveCapacity(max(local.bytes.count, server.bytes.count))
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
            output += bytes
        }
        return output
    }
}
