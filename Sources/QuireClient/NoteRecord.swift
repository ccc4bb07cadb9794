import Foundation
import QuireDomain

/// A live note row as the database holds it, with what the list needs to know about its sync.
public struct NoteRecord: Hashable, Sendable {
    public var id: NoteID
    public var title: String
    public var body: String
    public var updatedAt: Date
    public var conflictOf: NoteID?
    /// The last server version this device has for the note; 0 if the server has never confirmed it.
    public var version: Int
    /// Changes saved here the server has not acknowledged (in flight included).
    public var pendingCount: Int
    /// The server refused this note's change; the text stays here.
    public var refused: Bool
    /// This note is a conflict copy, or has a live conflict copy: the user has a choice to make.
    public var inConflict: Bool
    /// Why this note's change is not reaching the server, in words for the user: the server's
    /// refusal, or the last error of a change that failed ``ChangeRetry/stuckAfterAttempts`` times
    /// or more. nil when nothing is wrong.
    public var syncIssue: String?
    /// The note's current text came from another device (a pull, or a conflict settled for the
    /// server's copy); false when it was written on this device, by any of its processes.
    public var arrived: Bool
    /// The name of the device that typed the note's current text; nil: this device.
    public var typedOn: String?

    public init(
        id: NoteID, title: String, body: String, updatedAt: Date, conflictOf: NoteID?,
        version: Int, pendingCount: Int, refused: Bool, inConflict: Bool, syncIssue: String? = nil,
        arrived: Bool = false, typedOn: String? = nil
    ) {
        self.typedOn = typedOn
        self.arrived = arrived
        self.id = id
        self.title = title
        self.body = body
        self.updatedAt = updatedAt
        self.conflictOf = conflictOf
        self.version = version
        self.pendingCount = pendingCount
        self.refused = refused
        self.inConflict = inConflict
        self.syncIssue = syncIssue
    }
}
