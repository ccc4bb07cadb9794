import Foundation
import QuireDomain

/// A note deleted on this device or here from a pull, with the last text this device had of it.
public struct LocalTrashedNote: Hashable, Sendable {
    public var id: NoteID
    public var title: String
    public var body: String
    /// When it was deleted: this device's time of a delete typed here, the server's of one pulled.
    public var deletedAt: Date
    /// True while its delete has not reached the server.
    public var deleteUnsent: Bool
}
