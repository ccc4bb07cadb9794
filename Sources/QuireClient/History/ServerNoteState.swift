import Foundation
import QuireDomain

/// The server's state of a note, as its history or trash said: what a restore is written on.
public struct ServerNoteState: Hashable, Sendable {
    public var version: Int
    public var versionTag: String?
    public var deleted: Bool
    /// The current text, when the note is live and the server's answer had it.
    public var current: NoteContent?

    public init(version: Int, versionTag: String?, deleted: Bool, current: NoteContent? = nil) {
        self.version = version
        self.versionTag = versionTag
        self.deleted = deleted
        self.current = current
    }
}
