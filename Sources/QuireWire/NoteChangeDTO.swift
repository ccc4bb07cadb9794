import Foundation

/// One entry of the changes feed, and the server copy in a 409: a note's current state on the server.
///
/// `payload` is the client's sealed note (see `PayloadCodec` in QuireClient); the server stores and
/// returns it untouched. A tombstone has `deleted: true` and no payload; an `ownWrite` entry has
/// none either.
public struct NoteChangeDTO: Codable, Sendable, Equatable {
    /// The client-made note id, a lowercase UUID.
    public var id: String
    /// The server's version of this note, from 1, bumped on every accepted change.
    public var version: Int
    public var updatedAt: Date
    public var deleted: Bool
    public var payload: String?
    /// True in an incremental pull when the reader's own session wrote this state: the payload is
    /// left out, since that device has the text already. Absent otherwise.
    public var ownWrite: Bool?
    /// Opaque: with `version`, names this state in the server's history. After a restore from an
    /// older backup the same version number may name another text, with another tag: a device
    /// holding the same number with a different tag holds a text the server no longer has. Send
    /// it back as `baseVersionTag` with a write on this version. Absent for a state written
    /// before tags were kept.
    public var versionTag: String?

    public init(
        id: String, version: Int, updatedAt: Date, deleted: Bool, payload: String?,
        ownWrite: Bool? = nil, versionTag: String? = nil
    ) {
        self.versionTag = versionTag
        self.id = id
        self.version = version
        self.updatedAt = updatedAt
        self.deleted = deleted
        self.payload = payload
        self.ownWrite = ownWrite
    }
}
