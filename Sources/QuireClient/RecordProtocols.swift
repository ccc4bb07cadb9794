import Foundation
import QuireDomain

/// The database's half for the notes repository (seed 000 card 3).
public protocol NoteRecords: Sendable {
    /// Replays the live (not deleted) notes, newest first, then again after every commit that
    /// changed notes. Finishes when the caller's task is cancelled.
    func noteRows() -> AsyncStream<[NoteRecord]>
    /// Like ``noteRows()``, but each record's `body` holds only the first
    /// `NoteSummary.previewLength` characters: what a list needs, read without whole bodies.
    func noteSummaryRows() -> AsyncStream<[NoteRecord]>
    /// Like ``noteSummaryRows()``, only the first `count` + 1 rows (read by the list's index):
    /// the one beyond `count` says that more follow, so the caller never counts every note.
    func noteSummaryRows(first count: Int) -> AsyncStream<[NoteRecord]>
    /// Up to `limit` summary rows right after `position` in `sort`'s order (from the start when
    /// nil), read by that order's index: for reading the whole list a page at a time.
    func noteSummaryRows(sortedBy sort: NoteListSort, after position: NoteListPosition?, limit: Int)
        async throws -> [NoteRecord]
    /// One live note, or nil if it does not exist or is deleted.
    func noteRow(id: NoteID) async throws -> NoteRecord?
    /// The live conflict copies of note `id`, newest first, read by the conflict index.
    func conflictCopyRows(of id: NoteID) async throws -> [NoteRecord]
    /// Writes the note and its pending change in one transaction. Folds into the note's unsent
    /// change if it has one (a change in flight stays frozen; a new one queues behind it). If the
    /// note's text is no longer `editedFrom` (it changed while being edited), merges three ways,
    /// or on a clash keeps the note and writes this text as a linked conflict copy.
    func saveNote(id: NoteID, title: String, body: String, editedFrom: NoteText?) async throws
    /// Tombstones the note and queues its delete in one transaction. A note the server never
    /// confirmed just loses its unsent change. Unknown or deleted ids change nothing.
    func deleteNote(id: NoteID) async throws
}

/// The database's half for the sync status repository (card 4).
public protocol SyncStatusRecords: Sendable {
    /// Replays the status row, then again after every commit that changed it or the counts.
    func statusRow() -> AsyncStream<SyncStatusRecord>
}

/// The database's half for the sync engine (card 6), split by the engine's callers: pushing,
/// pulling, settling conflicts and recording runs. Each method is one transaction.
public typealias SyncRecords = PushRecords & PullRecords & SettlementRecords & SyncRunRecords

/// What pushing needs: the queue of pending changes.
///
/// The queue's rules: a note has at most one change in flight and at most one change not yet
/// handed out (later saves fold into it), and its changes are sent in the order they were made.
public protocol PushRecords: Sendable {
    /// Replays the number of pending changes, then each new value: the "after each save" trigger.
    func pendingCount() -> AsyncStream<Int>
    /// Publishes the streams again (the pending count among them) when another process of this
    /// device committed since the last call: its saves must be pushed too.
    func noticeChangesFromOtherProcesses() async throws
    /// Up to `limit` changes to send together (one per note), frozen: their text and base version
    /// fixed and marked in flight. Changes already in flight (a send whose answer was lost) are
    /// handed out again, unchanged and all together. Leaves out refused changes, changes in
    /// `skipping` (they failed earlier in this run), changes still backing off after failed sends
    /// (``ChangeRetry``) and every change queued behind one of those. Empty: nothing to send.
    func nextChanges(limit: Int, skipping: Set<ChangeID>) async throws -> [SentChange]
    /// Stores the sealed payload of the change in flight before it is first sent, unless one is
    /// stored already, and returns the stored one: every send of a change carries the same bytes
    /// (sealing again picks a new nonce), even when two processes sealed it.
    func freezePayload(_ change: ChangeID, payload: String) async throws -> String
    /// The server accepted the change: drop it, record the note's new version (nil for a delete,
    /// whose tombstone version arrives with the next pull) and, for a put, its text as the base.
    /// `tag` is the server's tag of that version, when it sent one; `position`, the write's
    /// cursor in the feed, when given: checked by the next pulls (a server that forgot it forgot
    /// this device's text; ``PullRecords/ackedPositions()``). `replayed`: the answer is the
    /// server's record of an earlier send of this change, so a newer server copy a pull skipped
    /// meanwhile is applied now; an answer to a fresh write names the server's current version,
    /// and a skipped copy newer than it is from a history the server forgot (10-device seed 208).
    func complete(_ change: ChangeID, version: Int?, tag: String?, position: Cursor?, replayed: Bool)
        async throws
    /// The server will never take this change. If a later save of the note is queued behind it,
    /// that save supersedes it (it is the device's newer text); otherwise the change stays, not
    /// sent, with its text and `reason` shown on the note, until the next save or delete of it.
    func markRefused(_ change: ChangeID, reason: String) async throws
    /// A send of the change failed in a way that may pass (a 5xx, a timeout, a broken
    /// connection): counts the attempt, keeps `error` to show, and holds the change back for
    /// ``ChangeRetry/delay(afterAttempts:)``. Returns the attempts so far.
    @discardableResult
    func recordFailedAttempt(_ change: ChangeID, error: String) async throws -> Int
    /// Gives the change in flight a new change id and forgets its sealed payload, keeping its text,
    /// base version and place. For a change id the server already holds with another request
    /// (422 `idempotency_key_reused`): the resend under the new id meets the server's copy as a
    /// conditional write, and the conflict policy settles what the server already has.
    func reissue(_ change: ChangeID) async throws -> ChangeID
    /// This device's label, sealed into every payload so other devices can say where a text was
    /// typed.
    func deviceLabel() async throws -> DeviceLabel
}

/// What pulling needs: applying the feed, its cursor and full resyncs.
public protocol PullRecords: Sendable {
    /// Applies a page of the feed and stores its cursor in one transaction. Skips notes with a
    /// pending change (a refused one yields to a newer server copy: the local text becomes a
    /// conflict copy) and changes no newer than the local copy; ignores tombstones of unknown
    /// notes. Refuses (throws `NotesDatabaseError.wrongAccount`) a page for another account than
    /// the one bound to this database. Returns how many notes the page changed on this device
    /// (what a sync reports as received): a note's own echo and a skipped note are not counted.
    @discardableResult
    func apply(_ changes: [RemoteNote], cursor: Cursor, account: AccountID) async throws -> Int
    /// ``apply(_:cursor:account:)`` for a page of a first listing that left out the payloads of
    /// this device's own writes (`own`): each must name the version and tag the device holds for
    /// that note, and is then confirmed like a listed copy no newer than the local one. If any
    /// does not (another version, another tag, no tag, a note this device lacks), nothing is
    /// written and it returns nil: the caller fetches the page again with every payload.
    func apply(_ changes: [RemoteNote], confirming own: [ListedOwnWrite], cursor: Cursor, account: AccountID)
        async throws -> Int?
    /// The stored cursor; nil before the first page.
    func cursor() async throws -> Cursor?
    /// Positions of acknowledged writes (``PushRecords/complete(_:version:tag:position:)``) that
    /// every pull sends for the server to check: the newest one a pull verified and each one
    /// acknowledged since. None after a `.serverForgot` resync began.
    func ackedPositions() async throws -> AckedPositions
    /// Every position ``ackedPositions()`` gave was found on the server: only the newest one
    /// stays to check, or `through`, the cursor a finished pull ended at, when given.
    func positionsVerified(through cursor: Cursor?) async throws
    /// Binds the database to an account (at sign-in). Binding a different account than the current
    /// one clears the cursor.
    func bindAccount(_ account: AccountID?) async throws
    func boundAccount() async throws -> AccountID?
    /// Forgets the cursor and marks every note unconfirmed, for a listing from the beginning;
    /// stores that a resync is in progress and why (it survives an interrupted run and a
    /// relaunch; a `.serverForgot` resync stays one until it finishes).
    func beginFullResync(_ reason: FullResyncReason) async throws
    /// Ends a full resync if one is in progress (possibly begun by an earlier, interrupted run).
    /// Notes the listing did not confirm and that have no pending change were deleted on the
    /// server and go; after `.serverForgot`, they are queued to be uploaded again instead (this
    /// device's text is the only copy left). Returns how many were queued again; 0 otherwise.
    @discardableResult
    func finishFullResync() async throws -> Int
}

/// The positions of this device's acknowledged writes that pulls send for the server to check.
///
/// One position is not enough: writes acknowledged after a restore are in the restored server's
/// history while an earlier one, acknowledged before it, is forgotten (seed 5293). So every
/// position acknowledged since the last pull that checked them stays until one does.
public struct AckedPositions: Sendable, Equatable {
    /// The newest position a pull found on the server.
    public var verified: Cursor?
    /// Positions acknowledged since, oldest first.
    public var unverified: [Cursor]

    public init(verified: Cursor? = nil, unverified: [Cursor] = []) {
        self.verified = verified
        self.unverified = unverified
    }

    /// Everything a pull sends.
    public var all: [Cursor] { (verified.map { [$0] } ?? []) + unverified }
}

/// Why a pull lists every note from the beginning.
public enum FullResyncReason: String, Sendable, Comparable {
    /// The first pull of this database, or of a new account.
    case firstListing
    /// 410: the cursor is older than the server's tombstone retention.
    case cursorExpired
    /// The server does not know the cursor: it lost writes it had acknowledged (a restored backup).
    case serverForgot

    private var rank: Int {
        switch self {
        case .firstListing: 0
        case .cursorExpired: 1
        case .serverForgot: 2
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// What settling a 409 needs.
public protocol SettlementRecords: Sendable {
    /// What the conflict policy needs for the note of this in-flight change.
    func conflictContext(for change: ChangeID) async throws -> ConflictContext
    /// Writes a conflict's outcome in one transaction. Throws `NotesDatabaseError.staleConflict`
    /// if the note changed since `expectedRevision` (the engine asks again).
    func settleConflict(_ settlement: ConflictSettlement) async throws
    /// A 409 whose server copy is older than the change's base (the server forgot acknowledged
    /// writes): the note takes the server's copy as its version and base, and this device's state
    /// is queued on top in place of the note's pending changes. Throws `.unknownChange`.
    func rebaseOnForgetfulServer(_ change: ChangeID, server: RemoteNote) async throws
}

/// What recording runs needs: the status row.
public protocol SyncRunRecords: Sendable {
    func runRecord() async throws -> SyncRunRecord
    func recordRun(_ record: SyncRunRecord) async throws
}

/// Settling conflicts by hand (issue 3): each choice is ordinary synced changes, one transaction.
public protocol ConflictRecords: Sendable {
    /// Resolves the conflict copy `copy` against its original (its `conflictOf`):
    /// `.mine`: the original takes the copy's title and body, the copy is deleted;
    /// `.theirs`: the copy is deleted; `.both`: the copy stays as an ordinary note (no longer
    /// linked). Every resulting save and delete is queued like a user's. Throws
    /// `NotesDatabaseError` `.unknownNote` or `.notAConflictCopy`.
    func resolveConflict(copy: NoteID, keep choice: ConflictChoice) async throws
}

extension PushRecords {
    /// The next change to send alone, frozen; nil when nothing can be sent.
    public func nextChange() async throws -> SentChange? {
        try await nextChanges(limit: 1, skipping: []).first
    }
}
