import Foundation
import QuireDomain

/// What the engine needs from the database to decide a conflict on one note.
public struct ConflictContext: Equatable, Sendable {
    /// The text of the last version the server confirmed to this device (the common ancestor).
    public var base: NoteText?
    /// This device's latest state of the note: its current text (every later save included), or
    /// its delete.
    public var local: Side
    public var conflictOf: NoteID?
    /// The note's local revision, bumped by every save and delete; settling checks it is unchanged.
    public var revision: Int

    public init(base: NoteText?, local: Side, conflictOf: NoteID?, revision: Int) {
        self.base = base
        self.local = local
        self.conflictOf = conflictOf
        self.revision = revision
    }
}

/// One conflict's outcome, written in one transaction by `SyncRecords.settleConflict`.
public struct ConflictSettlement: Hashable, Sendable {
    public enum Outcome: Hashable, Sendable {
        /// The note becomes the server's copy (its text, or its tombstone); nothing is queued for it.
        case takeServer
        /// The note takes this text, queued as one pending put on top of the server's version.
        case push(NoteContent)
    }

    /// The change that got the 409; it and every other pending change of its note are dropped.
    public var change: ChangeID
    /// The server's copy: it becomes the note's version and its base (common ancestor) text.
    public var server: RemoteNote
    public var outcome: Outcome
    /// A new note to create and queue (base nil): the conflict copy holding the local text.
    public var copy: (id: NoteID, content: NoteContent)?
    /// `ConflictContext.revision` the decision was made from.
    public var expectedRevision: Int

    public init(
        change: ChangeID, server: RemoteNote, outcome: Outcome,
        copy: (id: NoteID, content: NoteContent)?, expectedRevision: Int
    ) {
        self.change = change
        self.server = server
        self.outcome = outcome
        self.copy = copy
        self.expectedRevision = expectedRevision
    }

    public static func == (lhs: ConflictSettlement, rhs: ConflictSettlement) -> Bool {
        lhs.change == rhs.change && lhs.server == rhs.server && lhs.outcome == rhs.outcome
            && lhs.copy?.id == rhs.copy?.id && lhs.copy?.content == rhs.copy?.content
            && lhs.expectedRevision == rhs.expectedRevision
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(change)
        hasher.combine(server)
        hasher.combine(copy?.id)
    }
}
