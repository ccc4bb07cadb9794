import Foundation
import QuireWire

/// One stored version of a note.
public struct StoredVersion: Sendable, Equatable {
    public var version: Int
    public var savedAt: Date
    public var payload: String
    /// The mark of the write that made it (its version tag); 0 when from before marks.
    public var mark: Int64
    public var current: Bool

    public init(version: Int, savedAt: Date, payload: String, mark: Int64, current: Bool = false) {
        self.version = version
        self.savedAt = savedAt
        self.payload = payload
        self.mark = mark
        self.current = current
    }
}

extension StoredVersion {
    var wire: NoteVersionDTO {
        NoteVersionDTO(
            version: version, savedAt: savedAt, payload: payload, versionTag: StoredNote.tagText(mark),
            current: current ? true : nil)
    }
}
