import Foundation
import QuireDomain

/// A pending change handed to the sync engine, frozen: its text and base version no longer change,
/// so a resend after a lost reply is byte-for-byte the same request with the same change id.
public struct SentChange: Hashable, Sendable {
    public enum Operation: Hashable, Sendable {
        case put(NoteContent)
        case delete
    }

    public var id: ChangeID
    public var noteID: NoteID
    public var operation: Operation
    /// The server version the change was made on; nil for a note the server has never confirmed.
    public var baseVersion: Int?
    /// The server's tag of `baseVersion`, when known: sent with it.
    public var baseVersionTag: String?
    /// When the change was first queued, for the save-to-acknowledgement metric.
    public var createdAt: Date?
    /// The sealed payload as first sent, for a resend; nil before the first send.
    public var payload: String?

    public init(
        id: ChangeID, noteID: NoteID, operation: Operation, baseVersion: Int?,
        baseVersionTag: String? = nil, createdAt: Date? = nil, payload: String? = nil
    ) {
        self.baseVersionTag = baseVersionTag
        self.payload = payload
        self.id = id
        self.noteID = noteID
        self.operation = operation
        self.baseVersion = baseVersion
        self.createdAt = createdAt
    }
}
