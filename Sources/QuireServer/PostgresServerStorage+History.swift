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
    /// same version number, which a live history does not make). Background work runs on one
    /// instance at a time: a step that finds another instance's step running (the transaction
    /// advisory lock ``historyPruneLockKey``) ends this instance's pass, pruning nothing.
    public func pruneHistory(after: HistoryPruneCursor?, retention: HistoryRetention, now: Date, batchSize: Int)
        async throws -> (pruned: Int, next: HistoryPruneCursor?)
    {
        try await transaction { db in
            let mine =
                try db.queryFirst("SELECT pg_try_advisory_xact_lock($1)", Self.historyPruneLockKey) {
                    try $0.bool(0)
                } ?? false
            guard mine else { return (0, nil) }
            return try NoteHistoryQueries.prune(
                after: after, retention: retention, now: now, batchSize: batchSize, db: db)
        }
    }

    /// The advisory lock a pruning step holds ("qhist" in ASCII).
    static let historyPruneLockKey: Int64 = 0x71_68_69_73_74
}
