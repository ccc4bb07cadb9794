import Foundation
import QuireDomain

/// A note as the server holds it, opened: what a pull applies and what a 409 carries.
public struct RemoteNote: Hashable, Sendable {
    public var id: NoteID
    public var version: Int
    public var updatedAt: Date
    /// nil: a tombstone.
    public var content: NoteContent?

    public init(id: NoteID, version: Int, updatedAt: Date, content: NoteContent?) {
        self.id = id
        self.version = version
        self.updatedAt = updatedAt
        self.content = content
    }

    public var isDeleted: Bool { content == nil }
}
