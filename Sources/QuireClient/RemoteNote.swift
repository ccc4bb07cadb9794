import Foundation
import QuireDomain

/// A note as the server holds it, opened: what a pull applies and what a 409 carries.
public struct RemoteNote: Hashable, Sendable {
    public var id: NoteID
    public var version: Int
    public var updatedAt: Date
    /// nil: a tombstone.
    public var content: NoteContent?
    /// The server's tag of `version` (see `NoteChangeDTO.versionTag`); nil from older servers.
    public var versionTag: String?

    public init(
        id: NoteID, version: Int, updatedAt: Date, content: NoteContent?, versionTag: String? = nil
    ) {
        self.versionTag = versionTag
        self.id = id
        self.version = version
        self.updatedAt = updatedAt
        self.content = content
    }

    public var isDeleted: Bool { content == nil }

    /// Whether this copy's version, whose number equals the device's, is another text than the
    /// one the device holds under `localTag`: both tags known and different.
    public func isAnotherText(than localTag: String?) -> Bool {
        guard let versionTag, let localTag else { return false }
        return versionTag != localTag
    }
}
