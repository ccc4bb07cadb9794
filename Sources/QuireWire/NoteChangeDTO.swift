import Foundation

/// One entry of the changes feed, and the server copy in a 409: a note's current state on the server.
///
/// `payload` is the client's sealed note (see `PayloadCodec` in QuireClient); the server stores and
/// returns it untouched. A tombstone has `deleted: true` and no payload.
public struct NoteChangeDTO: Codable, Sendable, Equatable {
    /// The client-made note id, a lowercase UUID.
    public var id: String
    /// The server's version of this note, from 1, bumped on every accepted change.
    public var version: Int
    public var updatedAt: Date
    public var deleted: Bool
    public var payload: String?

    public init(id: String, version: Int, updatedAt: Date, deleted: Bool, payload: String?) {
        self.id = id
        self.version = version
        self.updatedAt = updatedAt
        self.deleted = deleted
        self.payload = payload
    }
}
