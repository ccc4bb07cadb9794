import Foundation
import QuireClient

/// How `history` and `trash` print versions and times for people.
enum HistoryText {
    /// `5   2026-11-29 14:59  phone        42 B  Groceries  (current)`
    static func line(for version: NoteVersion) -> String {
        let reference = version.reference.padding(
            toLength: max(4, version.reference.count), withPad: " ", startingAt: 0)
        let device = version.device.padding(toLength: max(12, version.device.count), withPad: " ", startingAt: 0)
        let size = size(of: version)
        let current = version.isCurrent ? "  (current)" : ""
        return "\(reference)  \(time(version.savedAt))  \(device)  \(size)  \(firstLine(of: version))\(current)"
    }

    /// The title, or the body's first line for an untitled text.
    static func firstLine(of version: NoteVersion) -> String {
        if !version.title.isEmpty { return TerminalText.oneLine(version.title) }
        let line = version.body.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init)
        return line ?? "(empty)"
    }

    /// The text's size in bytes (title and body), as `42 B` or `1.5 KB`, right-aligned in 8.
    static func size(of version: NoteVersion) -> String {
        let bytes = bytes(of: version)
        let text = bytes < 1024 ? "\(bytes) B" : String(format: "%.1f KB", Double(bytes) / 1024)
        return String(repeating: " ", count: max(0, 8 - text.count)) + text
    }

    static func bytes(of version: NoteVersion) -> Int { version.title.utf8.count + version.body.utf8.count }

    /// `2026-11-29 14:59`, in this machine's time zone.
    static func time(_ date: Date) -> String {
        formatter.string(from: date)
    }

    /// Made once: making a formatter costs more than a line of the listing (500 versions took
    /// about 60 ms more with one per line, debug build). Never changed after it is made.
    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter
    }()
}
