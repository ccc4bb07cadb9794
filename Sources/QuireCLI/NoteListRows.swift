import Foundation
import QuireDomain
import QuirePresentation

/// `quire ls` rows for a person at a terminal: id, title, when it changed ("5 min ago" today, the
/// app's short date before), the start of the text, and the badge, cut to the terminal's width.
struct NoteListRows {
    var width: Int
    var now: Date = Date()
    var dates = NotesDateFormatter()

    /// The title column: as wide as the longest title, at most 32.
    func titleWidth(_ notes: [NoteSummary]) -> Int {
        min(32, notes.map { max(TerminalText.oneLine($0.title).count, "(untitled)".count) }.max() ?? 0)
    }

    func line(for note: NoteSummary, badge: String, titleWidth: Int) -> String {
        let title = Self.fit(note.title.isEmpty ? "(untitled)" : TerminalText.oneLine(note.title), titleWidth)
        let head =
            "\(note.id.short)  \(Self.pad(title, titleWidth))  \(Self.pad(when(note.updatedAt), 12))"
        let tail = badge.isEmpty ? "" : "  [\(badge)]"
        let room = width - head.count - tail.count - 2
        let preview = note.preview.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        guard room >= 8, !preview.isEmpty else { return head.trimmingTrailingSpaces() + tail }
        return head + "  " + Self.fit(preview, room) + tail
    }

    /// "just now", "12 min ago", "3 h ago" for today; the short date before.
    func when(_ date: Date) -> String {
        let seconds = now.timeIntervalSince(date)
        guard Calendar.current.isDate(date, inSameDayAs: now), seconds >= 0 else { return dates.rowDate(date) }
        if seconds < 60 { return "just now" }
        if seconds < 3600 { return "\(Int(seconds / 60)) min ago" }
        return "\(Int(seconds / 3600)) h ago"
    }

    /// `text` cut to `width` characters, with `…` where cut.
    static func fit(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
