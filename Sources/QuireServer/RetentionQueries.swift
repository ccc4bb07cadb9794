import Foundation

/// The background work's statements, written once for both stores (see ``HistoryDatabase``):
/// each function is one bounded batch inside the caller's transaction.
enum RetentionQueries {
    /// How much longer than tombstones the marks of sequence numbers and note versions are kept
    /// (see ``FeedPosition`` and ``BaseVersion``): 60 days.
    static let markGrace: TimeInterval = 60 * 86_400

    /// Purges up to `limit` of the tombstones last changed before `cutoff` (the lowest-numbered
    /// first), and up to `limit` each of the idempotency records from before `cutoff`, the marks
    /// of note versions and the marks of sequence numbers from before `cutoff` minus
    /// ``markGrace``.
    ///
    /// A batch purges the tombstones numbered up to a bound (the `limit`-th lowest), so each
    /// affected account's purged sequence is raised to the highest one it lost: a cursor below
    /// it gets 410, one above it still sees the tombstones left for the next batch. The accounts
    /// are locked first, in id order (as a write locks its one account), so no write of theirs
    /// lands between the statements; a write that revives a tombstone meanwhile gives it a number
    /// above the bound, out of the batch.
    static func purgeBatch(olderThan cutoff: Date, limit: Int, db: some TripDatabase) throws -> PurgeBatch {
        let before = HistoryValue.int(cutoff.storedMilliseconds)
        let candidates = try db.historyRows(
            "SELECT seq FROM notes WHERE deleted = TRUE AND updated_at < $1 ORDER BY seq LIMIT $2",
            [before, .int(Int64(limit))]
        ) { try $0.int64At(0) }
        var batch = PurgeBatch()
        if let bound = candidates.last {
            let scope = "deleted = TRUE AND updated_at < $1 AND seq <= $2"
            let values = [before, .int(bound)]
            if !db.rowLock.isEmpty {
                _ = try db.historyRows(
                    """
                    SELECT id FROM accounts WHERE id IN (SELECT account_id FROM notes WHERE \(scope))
                    ORDER BY id \(db.rowLock)
                    """, values
                ) { try $0.int64At(0) }
            }
            try db.historyRun(
                """
                UPDATE accounts SET purged_seq = (
                    SELECT CASE WHEN MAX(seq) > accounts.purged_seq THEN MAX(seq) ELSE accounts.purged_seq END
                    FROM notes WHERE notes.account_id = accounts.id AND \(scope))
                WHERE id IN (SELECT account_id FROM notes WHERE \(scope))
                """, values)
            // A tombstone's mark is on its row only (see ``NoteMarkQueries``): kept as the
            // row goes, so a base on the deleted version is still known after the id's rewrite.
            try db.historyRun(
                """
                INSERT INTO note_marks (account_id, note_id, version, mark, created_at)
                SELECT account_id, note_id, version, mark, updated_at FROM notes WHERE \(scope) AND mark > 0
                ON CONFLICT DO NOTHING
                """, values)
            try db.historyRun(
                """
                INSERT INTO purged_versions (account_id, note_id, version)
                SELECT account_id, note_id, version FROM notes WHERE \(scope)
                ON CONFLICT (account_id, note_id) DO UPDATE SET version = excluded.version
                """, values)
            // The trash keeps a note only as long as its tombstone; the marks of its texts stay.
            let purgedNotes = "(account_id, note_id) IN (SELECT account_id, note_id FROM notes WHERE \(scope))"
            try NoteMarkQueries.keepMarks(ofVersionsWhere: purgedNotes, values, db: db)
            try db.historyRun("DELETE FROM note_versions WHERE \(purgedNotes)", values)
            batch.tombstones = try db.historyRun("DELETE FROM notes WHERE \(scope)", values)
        }
        batch.idempotencyRecords = try db.historyRun(
            """
            DELETE FROM idempotency_records WHERE (account_id, key) IN (
                SELECT account_id, key FROM idempotency_records WHERE created_at < $1 LIMIT $2)
            """, [before, .int(Int64(limit))])
        let markLimit = HistoryValue.int(cutoff.addingTimeInterval(-markGrace).storedMilliseconds)
        // The marks before the limit stop counting at once, the ones in the history included;
        // the rows go in batches.
        try NoteMarkQueries.raiseHorizon(to: markLimit, db: db)
        batch.marks = try db.historyRun(
            """
            DELETE FROM note_marks WHERE (account_id, note_id, version, mark) IN (
                SELECT account_id, note_id, version, mark FROM note_marks WHERE created_at < $1 LIMIT $2)
            """, [markLimit, .int(Int64(limit))])
        batch.marks += try pruneSequenceMarks(before: markLimit, limit: limit, db: db)
        batch.limit = limit
        return batch
    }

    /// Deletes up to `limit` marks of sequence numbers, in number order up to the first one
    /// young enough to keep: a scan of only what is deleted, where an index by age would cost
    /// every write. A clock that went back keeps some marks a little longer; none younger than
    /// the cutoff goes. A cursor whose mark is gone can no longer be checked against a restore,
    /// so it gets 410 and lists everything again; `marks_pruned_below` says where that starts.
    private static func pruneSequenceMarks(before markLimit: HistoryValue, limit: Int, db: some TripDatabase)
        throws -> Int
    {
        let keptFrom =
            try db.historyRows(
                "SELECT seq FROM seq_marks WHERE created_at >= $1 ORDER BY seq LIMIT 1", [markLimit]
            ) { try $0.int64At(0) }.first ?? (try db.currentFeedSeq() + 1)
        // The batch ends below the (limit + 1)-th oldest mark, when the kept ones start later.
        let batchEnd =
            try db.historyRows(
                "SELECT seq FROM seq_marks WHERE seq < $1 ORDER BY seq LIMIT 1 OFFSET $2",
                [.int(keptFrom), .int(Int64(limit))]
            ) { try $0.int64At(0) }.first ?? keptFrom
        let deleted = try db.historyRun("DELETE FROM seq_marks WHERE seq < $1", [.int(batchEnd)])
        try db.historyRun(
            """
            INSERT INTO meta (key, value) VALUES ('marks_pruned_below', $1)
            ON CONFLICT (key) DO UPDATE SET value = CASE WHEN excluded.value > meta.value
                THEN excluded.value ELSE meta.value END
            """, [.int(batchEnd)])
        return deleted
    }
}

/// What one batch of ``RetentionQueries/purgeBatch(olderThan:limit:db:)`` deleted.
public struct PurgeBatch: Sendable, Equatable {
    public var tombstones = 0
    public var idempotencyRecords = 0
    /// Marks of note versions and of sequence numbers.
    public var marks = 0
    /// The batch's bound on each kind.
    public var limit = 0

    public init() {}

    /// Whether a kind filled its bound: another batch may find more.
    public var mayHaveMore: Bool {
        tombstones >= limit || idempotencyRecords >= limit || marks >= limit
    }
}
