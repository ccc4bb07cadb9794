import Foundation
import QuirePostgres

/// The changes feed in the PostgreSQL store, with ``SQLiteServerStorage``'s rules exactly. Each
/// read is one `REPEATABLE READ` transaction: all its statements see one snapshot.
extension PostgresServerStorage {
    public func changes(account: AccountID, since: FeedPosition?, known: [FeedPosition], limit: Int)
        async throws -> ChangesResult
    {
        try await transaction(.repeatableRead) { db in
            try Self.changes(account: account, since: since, listingStart: nil, known: known, limit: limit, db: db)
        }
    }

    public func changes(
        account: AccountID, continuingFullListingAfter since: FeedPosition,
        listingStart: FeedPosition, known: [FeedPosition], limit: Int
    ) async throws -> ChangesResult {
        try await transaction(.repeatableRead) { db in
            try Self.changes(
                account: account, since: since, listingStart: listingStart, known: known, limit: limit, db: db)
        }
    }

    /// One page after `since` (nil: a full listing's first page); see
    /// `SQLiteServerStorage.changes(account:since:listingStart:known:limit:)` for each rule.
    private static func changes(
        account: AccountID, since: FeedPosition?, listingStart: FeedPosition?, known: [FeedPosition],
        limit: Int, db: PostgresConnection
    ) throws -> ChangesResult {
        let purgedSeq =
            try db.queryFirst("SELECT purged_seq FROM accounts WHERE id = $1", account.rawValue) {
                try $0.int64(0)
            } ?? 0
        let counter = try currentSeq(db)
        let named = [since, listingStart].compactMap { $0 }
        if (named + known).contains(where: { $0.seq > counter }) { return .cursorAhead }
        for position in known where position.mark != nil {
            guard position.matches(storedMark: try storedMark(position.seq, db: db)) else {
                return .cursorFromAnotherHistory
            }
        }
        let prunedBelow =
            try db.queryFirst("SELECT value FROM meta WHERE key = 'marks_pruned_below'") { try $0.int64(0) } ?? 0
        for position in named where position.mark != nil {
            let stored = try storedMark(position.seq, db: db)
            guard position.matches(storedMark: stored) else { return .cursorFromAnotherHistory }
            // A marked cursor whose number's mark was pruned cannot be told to be of this
            // history (seed 951): listing everything again is safe.
            if stored == nil, let mark = position.mark, mark > 0, position.seq < prunedBelow {
                return .cursorExpired
            }
        }
        if let expiry = listingStart ?? since, expiry.seq < purgedSeq { return .cursorExpired }
        var notes: [StoredNote]
        if let since {
            notes = try db.queryAll(
                """
                SELECT \(noteColumns) FROM notes WHERE account_id = $1 AND seq > $2
                ORDER BY seq LIMIT $3
                """, account.rawValue, since.seq, limit + 1, map: storedNote)
        } else {
            notes = try db.queryAll(
                """
                SELECT \(noteColumns) FROM notes WHERE account_id = $1 AND NOT deleted
                ORDER BY seq LIMIT $2
                """, account.rawValue, limit + 1, map: storedNote)
        }
        let hasMore = notes.count > limit
        if hasMore { notes.removeLast(notes.count - limit) }
        // What the same reading would still return after this page, for a progress total.
        var remaining = 0
        if hasMore, let after = notes.last?.seq {
            remaining =
                try db.queryFirst(
                    "SELECT COUNT(*) FROM notes WHERE account_id = $1 AND seq > $2"
                        + (since == nil ? " AND NOT deleted" : ""), account.rawValue, after
                ) { Int(try $0.int64(0)) } ?? 0
        }
        let latest =
            try db.queryFirst("SELECT COALESCE(MAX(seq), 0) FROM notes WHERE account_id = $1", account.rawValue) {
                try $0.int64(0)
            } ?? 0
        return .page(
            notes: notes, hasMore: hasMore, highest: try position(max(latest, purgedSeq), db: db),
            last: try notes.last.map { try position($0.seq, db: db) }, remaining: remaining)
    }

    /// The account's position in its feed: its latest change, or its purge mark if later, with
    /// that number's stored mark (0 when it has none).
    static func feedPosition(account: AccountID, db: PostgresConnection) throws -> FeedPosition {
        try db.queryFirst(
            """
            SELECT position, COALESCE((SELECT mark FROM seq_marks WHERE seq = position), 0)
            FROM (
                SELECT GREATEST(
                    COALESCE((SELECT MAX(seq) FROM notes WHERE account_id = $1), 0), purged_seq)
                    AS position
                FROM accounts WHERE id = $1) AS account_position
            """, account.rawValue
        ) { FeedPosition(seq: try $0.int64(0), mark: try $0.int64(1)) } ?? FeedPosition(seq: 0, mark: 0)
    }

    /// `seq` with its stored mark, 0 when it has none.
    static func position(_ seq: Int64, db: PostgresConnection) throws -> FeedPosition {
        FeedPosition(seq: seq, mark: try storedMark(seq, db: db) ?? 0)
    }

    static func storedMark(_ seq: Int64, db: PostgresConnection) throws -> Int64? {
        try db.queryFirst("SELECT mark FROM seq_marks WHERE seq = $1", seq) { try $0.int64(0) }
    }

    /// The last number the sequence handed out (0 before the first), committed or not: no
    /// cursor can name a number above it.
    static func currentSeq(_ db: PostgresConnection) throws -> Int64 {
        try db.queryFirst("SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM feed_seq") {
            try $0.int64(0)
        } ?? 0
    }
}
