import Foundation

/// The server's history and trash of notes: earlier payloads (ciphertext, as they were sent) with
/// their version, time and writer session, kept under a ``HistoryRetention``.
///
/// Every write that replaces a live note's state (an edit, a delete) keeps the replaced state as
/// an earlier version in the same transaction (``NoteHistoryQueries/archiveCurrent(_:account:now:db:)``),
/// so a deleted note's last text stays until its tombstone is purged, and a restore, an ordinary
/// put on the current version, keeps what it replaces too. Both stores run the same statements.
public protocol NoteHistoryStorage: Sendable {
    /// The note's current state (its tombstone, when deleted) and up to `limit` of its stored
    /// versions numbered below `before` (all when nil), newest first, the current text included
    /// while the note is live. nil when the account has no such note, nor any version of it.
    func noteHistory(account: AccountID, noteID: String, before: Int?, limit: Int) async throws -> NoteHistory?

    /// Up to `limit` of the account's deleted notes whose last text is still kept, most recently
    /// deleted first, and whether more follow.
    func trash(account: AccountID, limit: Int) async throws -> (notes: [TrashedNote], hasMore: Bool)

    /// One bounded step of pruning: up to `batchSize` notes after `after` (from the first when
    /// nil), in (account, note) order, lose the versions `retention` lets go, and each account met
    /// for the first time in this pass is brought under `retention.accountBytes` (at most
    /// `batchSize` × 10 versions per step, the oldest first). One short transaction, so writes go
    /// on between steps. Returns how many versions went and where to go on (nil: the pass is done).
    func pruneHistory(after: HistoryPruneCursor?, retention: HistoryRetention, now: Date, batchSize: Int)
        async throws -> (pruned: Int, next: HistoryPruneCursor?)
}
