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
    /// One live note, or nil if it does not exist or is deleted.
    func noteRow(id: NoteID) async throws -> NoteRecord?
    /// Writes the note and its pending change in one transaction. Folds into the note's unsent
    /// change if it has one (a change in flight stays frozen; a new one queues behind it).
    func saveNote(id: NoteID, title: String, body: String) async throws
    /// Tombstones the note and queues its delete in one transaction. A note the server never
    /// confirmed just loses its unsent change. Unknown or deleted ids change nothing.
    func deleteNote(id: NoteID) async throws
}

/// The database's half for the sync status repository (card 4).
public protocol SyncStatusRecords: Sendable {
    /// Replays the status row, then again after every commit that changed it or the counts.
    func statusRow() -> AsyncStream<SyncStatusRecord>
}

/// The database's half for the sync engine (card 6). Each method is one transaction.
public protocol SyncRecords: Sendable {
    /// Replays the number of pending changes, then each new value: the "after each save" trigger.
    func pendingCount() -> AsyncStream<Int>
    /// The oldest change whose note has nothing else in flight and that is not refused, frozen
    /// (its text and base version fixed, marked in flight). A change already in flight is handed
    /// out again unchanged (a resend). nil: nothing to send.
    func nextChange() async throws -> SentChange?
    /// Up to `limit` changes to send together (one per note), frozen; changes already in flight are
    /// handed out again, all together. Empty: nothing to send.
    func nextChanges(limit: Int) async throws -> [SentChange]
    /// Stores the sealed payload of the change in flight before it is first sent, so a resend
    /// carries the very same bytes (sealing again would pick a new nonce).
    func freezePayload(_ change: ChangeID, payload: String) async throws
    /// The server accepted the change: drop it, record the note's new version (nil for a delete,
    /// whose tombstone version arrives with the next pull) and, for a put, its text as the base.
    func complete(_ change: ChangeID, version: Int?) async throws
    /// The server will never take this change: keep it and the text, stop sending it, show the note
    /// as refused until it is edited again.
    func markRefused(_ change: ChangeID, reason: String) async throws
    /// What the conflict policy needs for the note of this in-flight change.
    func conflictContext(for change: ChangeID) async throws -> ConflictContext
    /// Writes a conflict's outcome in one transaction. Throws `NotesDatabaseError.staleConflict`
    /// if the note changed since `expectedRevision` (the engine asks again).
    func settleConflict(_ settlement: ConflictSettlement) async throws
    /// Applies a page of the feed and stores its cursor in one transaction. Skips notes with a
    /// pending change and changes no newer than the local copy; ignores tombstones of unknown notes.
    /// Refuses (throws `NotesDatabaseError.wrongAccount`) a page for another account than the one
    /// bound to this database.
    func apply(_ changes: [RemoteNote], cursor: Cursor, account: AccountID) async throws
    /// The stored cursor; nil before the first page.
    func cursor() async throws -> Cursor?
    /// Binds the database to an account (at sign-in). Binding a different account than the current
    /// one clears the cursor.
    func bindAccount(_ account: AccountID?) async throws
    func boundAccount() async throws -> AccountID?
    /// Forgets the cursor and marks every synced note unconfirmed, for a resync from the beginning;
    /// stores that a resync is in progress (it survives an interrupted run and a relaunch).
    func beginFullResync() async throws
    /// Ends a full resync if one is in progress (possibly begun by an earlier, interrupted run):
    /// removes notes the resync did not confirm and that have no pending change. Otherwise nothing.
    func finishFullResync() async throws
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

extension SyncRecords {
    /// One change at a time, for stores that do not batch.
    public func nextChanges(limit: Int) async throws -> [SentChange] {
        try await nextChange().map { [$0] } ?? []
    }
}
