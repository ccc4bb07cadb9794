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

    func pruneHistory(after: HistoryPruneCursor?, retention: HistoryRetention, now: Date, batchSize: Int)
        async throws -> (pruned: Int, next: HistoryPruneCursor?)
    {
        try await inner.pruneHistory(after: after, retention: retention, now: now, batchSize: batchSize)
    }
}
