import Foundation

/// One stored version of a note: its sealed payload as it was saved, untouched by the server.
public struct NoteVersionDTO: Codable, Sendable, Equatable {
    /// The server's version number of this text.
    public var version: Int
    /// When the server accepted this version.
    public var savedAt: Date
    public var payload: String
    /// The version's tag (see ``NoteChangeDTO/versionTag``); absent for one written before tags.
    public var versionTag: String?
    /// True for the note's current text; absent for an earlier one.
    public var current: Bool?

    public init(version: Int, savedAt: Date, payload: String, versionTag: String? = nil, current: Bool? = nil) {
        self.version = version
        self.savedAt = savedAt
        self.payload = payload
        self.versionTag = versionTag
        self.current = current
    }
}

/// `GET /v1/notes/{id}/versions` → 200: the note's state now (its tombstone, when deleted) and a
/// page of its stored versions, newest first, the current text included while the note is live.
public struct NoteHistoryDTO: Codable, Sendable, Equatable {
    public var id: String
    /// The note's current version (a tombstone's, when `deleted`), to write a restore on.
    public var version: Int
    public var versionTag: String?
    public var deleted: Bool
    public var updatedAt: Date
    public var versions: [NoteVersionDTO]
    /// More, older versions follow: ask again with `before` = the last version of this page.
    public var hasMore: Bool

    public init(
        id: String, version: Int, versionTag: String?, deleted: Bool, updatedAt: Date,
        versions: [NoteVersionDTO], hasMore: Bool
    ) {
        self.id = id
        self.version = version
        self.versionTag = versionTag
        self.deleted = deleted
        self.updatedAt = updatedAt
        self.versions = versions
        self.hasMore = hasMore
    }
}

/// A deleted note that can still be restored: its tombstone and the last text it had.
public struct TrashedNoteDTO: Codable, Sendable, Equatable {
    public var id: String
    /// The tombstone's version and tag: a restore is a put on this base.
    public var version: Int
    public var versionTag: String?
    public var deletedAt: Date
    public var last: NoteVersionDTO

    public init(id: String, version: Int, versionTag: String?, deletedAt: Date, last: NoteVersionDTO) {
        self.id = id
        self.version = version
        self.versionTag = versionTag
        self.deletedAt = deletedAt
        self.last = last
    }
}

/// `GET /v1/notes/trash` → 200: deleted notes whose last text the server still keeps, most
/// recently deleted first.
public struct TrashPageDTO: Codable, Sendable, Equatable {
    public var notes: [TrashedNoteDTO]
    /// More, earlier deletes follow than `limit` let through.
    public var hasMore: Bool

    public init(notes: [TrashedNoteDTO], hasMore: Bool) {
        self.notes = notes
        self.hasMore = hasMore
    }
}
