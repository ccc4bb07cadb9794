import Foundation
import QuireClient
import QuireDomain

// MARK: - search

extension QuireCommandLine {
    /// A search hit as `search --json` prints it. The field names are a scripting contract.
    struct SearchHitJSON: Encodable {
        var id: String
        var title: String
        /// Matching words between `**`.
        var snippet: String
        var conflictOf: String?
        var updatedAt: Date
        var rank: Double

        enum CodingKeys: String, CodingKey { case id, title, snippet, conflictOf, updatedAt, rank }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(snippet, forKey: .snippet)
            try container.encode(conflictOf, forKey: .conflictOf)  // null, not absent
            try container.encode(updatedAt, forKey: .updatedAt)
            try container.encode(rank, forKey: .rank)
        }
    }

    /// `quire search WORDS... [--json] [--limit N]`: the device's own index, no network. On a
    /// terminal the matching words are bold; elsewhere (and in JSON) between `**`.
    func search(_ arguments: Arguments) async throws {
        let query = arguments.positionals.joined(separator: " ")
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw CLIError.usage("search needs words to look for: quire search WORDS")
        }
        let limit = try Self.positiveInteger(arguments.options["limit"], option: "limit") ?? 20
        let json = arguments.flag("json")
        // On a terminal the matches are bold: marked first with two private-use characters, which
        // become the escape codes once the text around them is made safe to show.
        let bold = !json && console.stdoutIsTerminal
        let marks = bold ? ("\u{E000}", "\u{E001}") : ("**", "**")
        let show = { (line: String) in
            guard bold else { return console.out(line) }
            console.outFormatted(
                TerminalText.visible(line).replacingOccurrences(of: "\u{E000}", with: "\u{1B}[1m")
                    .replacingOccurrences(of: "\u{E001}", with: "\u{1B}[0m"))
        }
        let device = try openDevice()
        let hits = try await device.database.search(query, limit: limit, highlight: marks)
        if json {
            try console.json(
                hits.map {
                    SearchHitJSON(
                        id: $0.id.description, title: $0.title, snippet: $0.snippet,
                        conflictOf: $0.conflictOf?.description, updatedAt: $0.updatedAt, rank: $0.rank)
                })
            return
        }
        guard !hits.isEmpty else {
            console.out("No notes match '\(query)'.")
            return
        }
        for hit in hits {
            let title = hit.title.isEmpty ? "(untitled)" : hit.highlightedTitle
            let copy = hit.conflictOf == nil ? "" : "  [conflict copy]"
            show("\(hit.id.short)  \(title.replacingOccurrences(of: "\n", with: " "))\(copy)")
            let snippet = hit.snippet.replacingOccurrences(of: "\n", with: " ")
            if !snippet.isEmpty { show("          \(snippet)") }
        }
    }

    /// `--NAME N` as a positive integer; nil when not given.
    static func positiveInteger(_ text: String?, option: String) throws -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value > 0 else {
            throw CLIError.usage("--\(option) takes a positive whole number, not '\(text)'")
        }
        return value
    }
}
