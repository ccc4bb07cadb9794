import Foundation
import QuireDomain

/// One deleted note in the trash.
public struct TrashRow: Identifiable, Equatable, Sendable {
    public let id: NoteID
    /// The trimmed title, or "Untitled".
    public let title: String
    /// The body's first line with text.
    public let preview: String
    /// "Deleted 10:42" today, "Deleted 3 Mar 2025" before.
    public let deleted: String
    /// "Delete not synced" while the delete has not reached the server.
    public let badge: String?

    public init(_ note: TrashedNote, formatter: NotesDateFormatter) {
        id = note.id
        let title = note.text.title.trimmingCharacters(in: .whitespacesAndNewlines)
        self.title = title.isEmpty ? "Untitled" : title
        preview = NoteRow.preview(of: note.text.body)
        deleted = "Deleted " + formatter.rowDate(note.deletedAt)
        badge = note.deleteUnsent ? "Delete not synced" : nil
    }
}
