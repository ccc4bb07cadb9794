import Foundation

/// A deleted note that can be brought back, with the last text it had.
public struct TrashedNote: Hashable, Sendable, Identifiable {
    public var id: NoteID
    public var text: NoteText
    public var deletedAt: Date
    /// Deleted here; the delete has not reached the server.
    public var deleteUnsent: Bool

    public init(id: NoteID, text: NoteText, deletedAt: Date, deleteUnsent: Bool = false) {
        self.id = id
        self.text = text
        self.deletedAt = deletedAt
        self.deleteUnsent = deleteUnsent
    }
}
