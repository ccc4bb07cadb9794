import Foundation

/// History and trash in the PostgreSQL store: ``NoteHistoryQueries`` in one transaction each.
extension PostgresServerStorage: NoteHistoryStorage {
    public func noteHistory(account: AccountID, noteID: String, before: Int?, limit: Int) async throws
        -> NoteHistory?
    {
        try await transaction(.repeatableRead) { db in
            try NoteHistoryQueries.history(account: account, noteID: noteID, before: before, limit: limit, db: db)
        }
    }

    public func trash(account: AccountID, limit: Int) async throws -> (notes: [TrashedNote], hasMore: Bool) {
        try await transaction(.repeatableRead) { db in
            try NoteHistoryQueries.trash(account: account, limit: limit, db: db)
        }
    }

    /// One step in one transaction that takes no account lock: writes, which lock their
    /// account's row, never wait for it (a delete of a version row meets only a write of that
    /// same version number, which a live history does not make).
    public func pruneHistory(after: HistoryPruneCursor?, retention: HistoryRetention, now: Date, batchSize: Int)
        async throws -> (pruned: Int, next: HistoryPruneCursor?)
    {
        try await transaction { db in
            try NoteHistoryQueries.prune(after: after, retention: retention, now: now, batchSize: batchSize, db: db)
        }
    }
}
