import Foundation
import QuireDomain

/// A note as a Markdown file, for `quire export` and `quire import`.
///
/// Export writes front matter, then the body exactly as stored:
///
///     ---
///     title: "Groceries"
///     id: 3d33…
///     updated: 2026-12-01T12:00:00Z
///     conflict-copy-of: 47334512…      (only for a conflict copy)
///     ---
///     milk
///
/// The title is a JSON string (valid YAML), so any title comes back exactly; nothing is added to
/// or taken from the body, so a note round-trips byte for byte. Import also reads files written
/// elsewhere: a `title:` in front matter, else a first line `# Heading`, else the file's name.
/// Import never drops a line: only Quire's own keys leave the front matter, any other key (an
/// Obsidian vault's tags, aliases, dates) stays at the top of the body as front matter of its
/// own, and a leading `---` block that is not `key: value` lines (a horizontal rule, prose
/// between rules) is text like the rest.
enum MarkdownNote {
    /// The front matter keys export writes, which import reads and takes out of the text.
    static let ownKeys: Set<String> = ["title", "id", "updated", "conflict-copy-of"]

    static func render(_ note: Note) -> String {
        var lines = ["---", "title: " + quoted(note.title), "id: \(note.id)"]
        lines.append("updated: " + ISO8601DateFormatter().string(from: note.updatedAt))
        if let original = note.conflictOf { lines.append("conflict-copy-of: \(original)") }
        lines.append("---")
        return lines.joined(separator: "\n") + "\n" + note.body
    }

    /// The title and body of a file's `text`; `fileName` without its extension is the fallback title.
    static func parse(_ text: String, fileName: String) -> NoteText {
        let fallbackTitle = (fileName as NSString).deletingPathExtension
        if let (frontMatter, body) = splitFrontMatter(text), isFrontMatter(frontMatter) {
            let others = linesOfOtherKeys(frontMatter)
            let kept = others.isEmpty ? body : "---\n" + others.joined(separator: "\n") + "\n---\n" + body
            return NoteText(title: value(of: "title", in: frontMatter) ?? fallbackTitle, body: kept)
        }
        let firstLine = text.prefix { $0 != "\n" }
        if firstLine.hasPrefix("# ") {
            var body = text.dropFirst(firstLine.count)
            if body.hasPrefix("\n") { body = body.dropFirst() }
            if body.hasPrefix("\n") { body = body.dropFirst() }
            return NoteText(title: firstLine.dropFirst(2).trimmingCharacters(in: .whitespaces), body: String(body))
        }
        return NoteText(title: fallbackTitle, body: text)
    }

    /// Whether a leading `---` block's lines are YAML front matter: `key: value` lines (a key of
    /// letters, digits, `_` and `-`), each maybe followed by indented or `- ` lines (a list or a
    /// folded value), blank lines and `#` comments; at least one key, and a key first.
    static func isFrontMatter(_ lines: [Substring]) -> Bool {
        var sawKey = false
        for line in lines {
            if line.allSatisfy(\.isWhitespace) || line.hasPrefix("#") { continue }
            if key(of: line) != nil {
                sawKey = true
            } else if !sawKey || !(line.first?.isWhitespace == true || line.hasPrefix("- ") || line == "-") {
                return false
            }
        }
        return sawKey
    }

    /// The key a front matter line opens with (`key:` then a space or the line's end); nil for
    /// another line.
    static func key(of line: Substring) -> Substring? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let key = line[..<colon]
        guard let first = key.first, first.isLetter || first == "_",
            key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
        else { return nil }
        let after = line[line.index(after: colon)...]
        return after.isEmpty || after.first == " " ? key : nil
    }

    /// The front matter's lines other than Quire's own keys (with the lines under those keys).
    static func linesOfOtherKeys(_ lines: [Substring]) -> [Substring] {
        var kept: [Substring] = []
        var inOwnKey = false
        for line in lines {
            if let key = key(of: line) {
                inOwnKey = ownKeys.contains(String(key))
            }
            if !inOwnKey { kept.append(line) }
        }
        return kept
    }

    /// The front matter's lines and what follows its closing `---` line, when `text` opens with one.
    static func splitFrontMatter(_ text: String) -> (lines: [Substring], body: String)? {
        guard text.hasPrefix("---\n") else { return nil }
        let rest = text.dropFirst(4)
        let closing: Range<Substring.Index>?
        if rest.hasPrefix("---\n") {
            closing = rest.startIndex..<rest.index(rest.startIndex, offsetBy: 4)
        } else {
            closing = rest.range(of: "\n---\n").map { $0.lowerBound..<$0.upperBound }
        }
        guard let closing else { return nil }
        let header = rest[..<closing.lowerBound]
        return (header.split(separator: "\n", omittingEmptySubsequences: false), String(rest[closing.upperBound...]))
    }

    /// A key's value in front matter lines: a JSON (double-quoted) string, a single-quoted one, or
    /// the bare text.
    static func value(of key: String, in lines: [Substring]) -> String? {
        guard let line = lines.first(where: { $0.hasPrefix(key + ":") }) else { return nil }
        let raw = line.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
        if raw.hasPrefix("\""), let decoded = try? JSONDecoder().decode(String.self, from: Data(raw.utf8)) {
            return decoded
        }
        if raw.count >= 2, raw.hasPrefix("'"), raw.hasSuffix("'") {
            return String(raw.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
        }
        return raw
    }

    static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
