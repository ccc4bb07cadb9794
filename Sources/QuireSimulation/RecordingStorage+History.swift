import Foundation
import QuireServer

// MARK: - NoteHistoryStorage: the history and trash routes, answered

extension RecordingStorage: NoteHistoryStorage {
    /// The note's history as the real store keeps it. Under the sabotage
    /// ``SimulationConfig/Sabotage/serverForgetsHistory`` only the current text comes back: the
    /// server kept no earlier version, which the history ledger must catch.
    func noteHistory(account: AccountID, noteID: String, before: Int?, limit: Int) async throws -> NoteHistory? {
        guard var history = try await inner.noteHistory(account: account, noteID: noteID, before: before, limit: limit)
        else { return nil }
        if forgetsHistory {
            history.versions = history.versions.filter(\.current)
            history.hasMore = false
        }
        return history
    }

    /// The trash as the real store keeps it; empty under ``SimulationConfig/Sabotage/serverForgetsHistory``.
    func trash(account: AccountID, limit: Int) async throws -> (notes: [TrashedNote], hasMore: Bool) {
        if forgetsHistory { return ([], false) }
        return try await inner.trash(account: account, limit: limit)
    }

    /// Prunes the history with a retention of zero, in batches as the server does (small ones, so
    /// a pass spans several): every earlier version goes but a deleted note's last text. Returns
    /// how many went.
    ///
    /// The texts the policy lets go leave the history ledger (past retention they are gone by
    /// design), worked out from the policy before the server prunes: a live note keeps its
    /// current text, a deleted one its last. So a server that pruned more than the policy says
    /// leaves the ledger owing a text no device can find.
    func pruneEveryEarlierVersion(now: Date) async throws -> Int {
        var kept: Set<AcknowledgedText> = []
        if let account {
            for note in try await inner.allNotes(account: account) {
                if let payload = note.payload, !note.deleted {
                    kept.insert(AcknowledgedText(noteID: note.id, payload: payload))
                } else if let last = try await inner.noteHistory(
                    account: account, noteID: note.id, before: nil, limit: 1)?.versions.first
                {
                    kept.insert(AcknowledgedText(noteID: note.id, payload: last.payload))
                }
            }
        }
        let retention = HistoryRetention(keepEvery: 0, keepDaily: 0, keepWeekly: 0)
        var cursor: HistoryPruneCursor?
        var pruned = 0
        repeat {
            let batch = try await inner.pruneHistory(after: cursor, retention: retention, now: now, batchSize: 8)
            pruned += batch.pruned
            cursor = batch.next
        } while cursor != nil
        lock.withLock { acknowledged.removeAll { !kept.contains($0) } }
        return pruned
    }

    func pruneHistory(after: HistoryPruneCursor?, retention: HistoryRetention, now: Date, batchSize: Int)
        async throws -> (pruned: Int, next: HistoryPruneCursor?)
    {
        try await inner.pruneHistory(after: after, retention: retention, now: now, batchSize: batchSize)
    }
}
