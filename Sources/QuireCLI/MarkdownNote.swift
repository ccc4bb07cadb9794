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
enum MarkdownNote {
    static func render(_ note: Note) -> String {
        var lines = ["---", "title: " + quoted(note.title), "id: \(note.id)"]
        lines.append("updated: " + ISO8601DateFormatter().string(from: note.updatedAt))
        if let original = note.conflictOf { lines.append("conflict-copy-of: \(original)") }
        lines.append("---")
        return lines.joined(separator: "\n") + "\n" + note.body
    }

    /// The title and body of a file's `text`; `fileName` without its extension is the fallback title.
    static func parse(_ text: String, fileName: String) -> NoteText {
        if let (frontMatter, body) = splitFrontMatter(text), let title = value(of: "title", in: frontMatter) {
            return NoteText(title: title, body: body)
        }
        let firstLine = text.prefix { $0 != "\n" }
        if firstLine.hasPrefix("# ") {
            var body = text.dropFirst(firstLine.count)
            if body.hasPrefix("\n") { body = body.dropFirst() }
            if body.hasPrefix("\n") { body = body.dropFirst() }
            return NoteText(title: firstLine.dropFirst(2).trimmingCharacters(in: .whitespaces), body: String(body))
        }
        let body = splitFrontMatter(text)?.body ?? text
        return NoteText(title: (fileName as NSString).deletingPathExtension, body: body)
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
        return (header.split(separator: "\n"), String(rest[closing.upperBound...]))
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
