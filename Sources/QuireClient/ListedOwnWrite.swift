import Foundation
import QuireDomain

/// An entry of a first listing that the device's own session wrote, sent without its payload
/// (`ownWrite`): the device confirms it holds that very state by its version and tag.
public struct ListedOwnWrite: Hashable, Sendable {
    public var id: NoteID
    public var version: Int
    /// The server's tag of `version`; a state with none cannot be confirmed without its payload.
    public var versionTag: String?

    public init(id: NoteID, version: Int, versionTag: String?) {
        self.id = id
        self.version = version
        self.versionTag = versionTag
    }
}
