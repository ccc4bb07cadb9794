/// The two-level merge behind `ThreeWayMerge`: diff3 by lines, and each region both sides
/// changed retried by word tokens before it counts as a clash.
enum TextMerge {
    /// The merged bytes, or nil for a clash.
    static func lines(base: [UInt8], local: [UInt8], server: [UInt8]) -> [UInt8]? {
        var table = SymbolTable()
        let base = TextUnits(base, by: .lines, table: &table)
        let local = TextUnits(local, by: .lines, table: &table)
        let server = TextUnits(server, by: .lines, table: &table)
        let flags = table.flags
        // An open line (the last, without terminator) glues to whatever follows it.
        let rules = MergeRules(glues: { left, _ in flags[left] }, insertionBesideDeletionClashes: false)
        let merge = SequenceMerge(
            base: base.symbols, local: local.symbols, server: server.symbols, rules: rules)
        let pieces = merge.merge { conflict in
            words(
                base: Array(base.span(conflict.base)),
                local: Array(local.span(conflict.local)),
                server: Array(server.span(conflict.server)))
        }
        guard let pieces else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(max(local.bytes.count, server.bytes.count))
        for piece in pieces {
            let bytes = bytes(of: piece, base: base, local: local, server: server)
            // Last safety net: text after a line without terminator would join that line.
            if !bytes.isEmpty, let last = output.last, last != UInt8(ascii: "\n") { return nil }
            output += bytes
        }
        return output
    }

    /// The merged bytes of one region at word granularity, or nil for a clash.
    ///
    /// Same rules as lines, stricter in one place: an insertion right beside a word the other
    /// side deleted is taken as an edit of that word, so it clashes.
    static func words(base: [UInt8], local: [UInt8], server: [UInt8]) -> [UInt8]? {
        var table = SymbolTable()
        let base = TextUnits(base, by: .words, table: &table)
        let local = TextUnits(local, by: .words, table: &table)
        let server = TextUnits(server, by: .words, table: &table)
        let flags = table.flags
        let rules = MergeRules(
            glues: { left, right in flags[left] && flags[right] }, insertionBesideDeletionClashes: true)
        let merge = SequenceMerge(
            base: base.symbols, local: local.symbols, server: server.symbols, rules: rules)
        guard let pieces = merge.merge(retry: { _ in nil }) else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(max(local.bytes.count, server.bytes.count))
        for piece in pieces { output += bytes(of: piece, base: base, local: local, server: server) }
        return output
    }

    private static func bytes(
        of piece: MergePiece, base: TextUnits, local: TextUnits, server: TextUnits
    ) -> ArraySlice<UInt8> {
        switch piece {
        case .copy(.base, let units): base.span(units)
        case .copy(.local, let units): local.span(units)
        case .copy(.server, let units): server.span(units)
        case .text(let bytes): bytes[...]
        }
    }
}
