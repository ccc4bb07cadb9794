import Foundation
import QuireDomain

/// One line of the notes list.
public struct NoteRow: Identifiable, Equatable, Sendable {
    /// The mark beside a row that is not simply synced.
    public enum Badge: Equatable, Sendable {
        case none
        /// Saved here, not yet on the server: "Not synced".
        case notSynced
        /// A conflict copy waits to be resolved.
        case conflict
        /// The server will not take this note's change; the text is safe here.
        case refused

        /// The words the badge shows; nil for `.none`.
        public var label: String? {
            switch self {
            case .none: nil
            case .notSynced: "Not synced"
            case .conflict: "Conflict"
            case .refused: "Not accepted by the server"
            }
        }
    }

    public let id: NoteID
    /// The trimmed title, or "Untitled".
    public let title: String
    /// The body's first line that has text, trimmed, at most `previewLength` characters.
    public let preview: String
    /// When the note last changed, in the injected formatter's locale and time zone.
    public let date: String
    public let badge: Badge

    /// The longest preview, ellipsis included.
    public static let previewLength = 80

    public init(id: NoteID, title: String, preview: String, date: String, badge: Badge) {
        self.id = id
        self.title = title
        self.preview = preview
        self.date = date
        self.badge = badge
    }

    /// The row for `note`, its date formatted by `formatter`.
    public init(_ note: Note, formatter: NotesDateFormatter) {
        self.init(NoteSummary(note), formatter: formatter)
    }

    /// The row for a summary (what the list watches), its date formatted by `formatter`. The
    /// summary's preview is the start of the body, which holds the line the row shows.
    public init(_ summary: NoteSummary, formatter: NotesDateFormatter) {
        let title = summary.title.trimmingCharacters(in: .whitespacesAndNewlines)
        self.init(
            id: summary.id, title: title.isEmpty ? "Untitled" : title,
            preview: Self.preview(of: summary.preview), date: formatter.rowDate(summary.updatedAt),
            badge: Badge(summary.sync))
    }

    /// The first line of `body` with any text, trimmed, cut to `previewLength` with an ellipsis.
    /// Scans only as far as that line, so a long body costs nothing past it.
    static func preview(of body: String) -> String {
        var rest = body[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(where: \.isNewline) ?? rest.endIndex
            let line = rest[..<end].trimmingCharacters(in: .whitespaces)
            if !line.isEmpty {
                return line.count <= previewLength ? line : line.prefix(previewLength - 1) + "…"
            }
            rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
        }
        return ""
    }
}

extension NoteRow.Badge {
    /// The badge for a note's sync state.
    public init(_ state: NoteSyncState) {
        switch state {
        case .synced: self = .none
        case .pending: self = .notSynced
        case .conflict: self = .conflict
        case .refused: self = .refused
        }
    }
}
