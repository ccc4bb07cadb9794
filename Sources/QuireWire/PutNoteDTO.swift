import Foundation

/// `PUT /v1/notes/{id}` request body. `baseVersion` is the server version the edit started from,
/// `null` for a note the server has never seen. It is always encoded, `null` included.
public struct PutNoteRequestDTO: Codable, Sendable, Equatable {
    public var payload: String
    public var baseVersion: Int?
    /// The base version's `versionTag`, when the device has it; left out otherwise.
    public var baseVersionTag: String?

    public init(payload: String, baseVersion: Int?, baseVersionTag: String? = nil) {
        self.payload = payload
        self.baseVersion = baseVersion
        self.baseVersionTag = baseVersionTag
    }

    enum CodingKeys: String, CodingKey { case payload, baseVersion, baseVersionTag }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(payload, forKey: .payload)
        try container.encode(baseVersion, forKey: .baseVersion)
        try container.encodeIfPresent(baseVersionTag, forKey: .baseVersionTag)
    }
}

/// `PUT /v1/notes/{id}` → 200: the note's new server version, and where the write sits in the
/// account's changes feed: `cursor` just after it, `previousCursor` just before it. When
/// `previousCursor` is the cursor a device already holds, nothing else changed in between, and the
/// device can move its cursor to `cursor` without pulling its own write back.
public struct PutNoteResponseDTO: Codable, Sendable, Equatable {
    public var version: Int
    public var cursor: String?
    public var previousCursor: String?
    /// The new version's tag (see ``NoteChangeDTO/versionTag``).
    public var versionTag: String?

    public init(
        version: Int, cursor: String? = nil, previousCursor: String? = nil,
        versionTag: String? = nil
    ) {
        self.versionTag = versionTag
        self.version = version
        self.cursor = cursor
        self.previousCursor = previousCursor
    }
}

/// The body of a 409: the server's current copy of the note, or its tombstone.
public struct ConflictResponseDTO: Codable, Sendable, Equatable {
    public var note: NoteChangeDTO

    public init(note: NoteChangeDTO) {
        self.note = note
    }
}
