import Foundation

/// Realistic note texts cut from the final text of real typing histories: prose and LaTeX written
/// by people, not random letters, so JSON escaping, compression-free sizes and line structure are
/// what real notes have.
struct NoteCorpus {
    /// All the source text, as UTF-8.
    private let source: [UInt8]

    /// Builds the corpus from the traces' final texts. Throws when the traces cannot be read.
    static func load() throws -> NoteCorpus {
        let texts = try ["seph-blog1", "automerge-paper"].map { try EditingTrace.load($0).endContent }
        return NoteCorpus(source: Array(texts.joined(separator: "\n\n").utf8))
    }

    init(source: [UInt8]) {
        precondition(source.count > 10_000, "corpus too small")
        self.source = source
    }

    /// Note number `index`: a title (its first words) and a body of about `bodyBytes` UTF-8 bytes,
    /// starting at a word boundary. The same index always gives the same note.
    func note(_ index: Int, bodyBytes: Int = 2_000) -> (title: String, body: String) {
        let span = source.count - bodyBytes - 64
        var start = (index &* 7_919) % span
        // Start after a space so the note begins with a whole word (and whole UTF-8 sequence).
        while start < span, source[start] != 0x20 { start += 1 }
        start += 1
        var end = start + bodyBytes
        while end < source.count, source[end] & 0xC0 == 0x80 { end += 1 }
        let body = String(decoding: source[start..<end], as: UTF8.self)
        let words = body.split(whereSeparator: \.isWhitespace).prefix(6).joined(separator: " ")
        return ("\(words) (\(index))", body)
    }

    /// The same note after a small edit: one word near the middle replaced, as a person would.
    static func edited(_ body: String, round: Int) -> String {
        var words = body.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard !words.isEmpty else { return body + " edited \(round)" }
        words[words.count / 2] = "revised\(round)"
        return words.joined(separator: " ")
    }
}
