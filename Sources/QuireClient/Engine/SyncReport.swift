import Foundation

/// What one sync run did, for `quire sync` and for tests.
public struct SyncReport: Hashable, Sendable, Codable {
    /// Changes the server accepted (resends of already-applied changes included).
    public var pushed = 0
    /// Conflicts settled by merging both edits: no copy.
    public var merged = 0
    /// Conflict copies made because both sides changed the same text differently.
    public var conflictCopies = 0
    /// Conflicts where one side's delete lost to the other side's edit.
    public var editsBeatDeletes = 0
    /// Trip fields where this device's value met another device's and waits for the person's
    /// choice (an edit that met a delete included).
    public var fieldConflicts = 0
    /// Changes the server will not take (the text stays on this device).
    public var refused = 0
    /// Notes received from the server and applied (skipped ones not counted).
    public var received = 0
    /// Payloads that could not be opened; skipped.
    public var undecryptable = 0
    /// Changes whose send failed in a way that may pass; they wait their turn (``ChangeRetry``)
    /// while the others went on.
    public var deferred = 0
    /// Notes the server had lost (it did not know this device's cursor) that were sent again.
    public var reuploaded = 0
    /// The feed was restarted from the beginning (cursor expired, or unknown to the server).
    public var fullResync = false
    /// Trips this device deleted because the account is no longer a member, with what was lost.
    public var tripsRemoved: [TripsDatabase.Removal] = []
    /// Trips whose key this device rotated because a member left (issue 15).
    public var keysRotated = 0
    /// Why the run stopped early; nil when it finished.
    public var failure: SyncFailure?

    public init() {}

    public var succeeded: Bool { failure == nil }
}
