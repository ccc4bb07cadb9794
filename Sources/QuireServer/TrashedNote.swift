import Foundation

/// A deleted note and the last text it had.
public struct TrashedNote: Sendable, Equatable {
    /// The tombstone.
    public var tombstone: StoredNote
    public var last: StoredVersion
}
