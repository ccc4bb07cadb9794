import Foundation

/// History and trash in the SQLite store: ``NoteHistoryQueries`` in one transaction each.
extension SQLiteServerStorage: NoteHistoryStorage {
    public func noteHistory(account: AccountID, noteID: String, before: Int?, limit: Int) throws -> NoteHistory? {
        let db = try open()
        return try db.transaction {
            try NoteHistoryQueries.history(account: account, noteID: noteID, before: before, limit: limit, db: db)
        }
    }

    public func trash(account: AccountID, limit: Int) throws -> (notes: [TrashedNote], hasMore: Bool) {
        let db = try open()
        return try db.transaction { try NoteHistoryQueries.trash(account: account, limit: limit, db: db) }
    }

    /// One step in one transaction of the file's one writer: a write waits at most for this
    /// step, and the actor takes the waiting writes before the next.
    public func pruneHistory(after: HistoryPruneCursor?, retention: HistoryRetention, now: Date, batchSize: Int)
        throws -> (pruned: Int, next: HistoryPruneCursor?)
    {
        let db = try open()
        return try db.transaction {
            try NoteHistoryQueries.prune(after: after, retention: retention, now: now, batchSize: batchSize, db: db)
        }
    }
}
