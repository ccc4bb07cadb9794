import Foundation
import QuireWire

/// ``TripStorage`` reads (a trip's changes, its snapshot, the account's trips feed) and the purge
/// of trip tombstones, written once for both stores. Each runs inside the caller's transaction:
/// the reads see one snapshot of the database (SQLite's transaction, PostgreSQL's
/// `REPEATABLE READ`).
extension TripQueries {
    // MARK: - Reading

    /// ``TripStorage/tripChanges(_:account:after:known:limit:)`` in the caller's transaction.
    static func tripChanges(
        _ trip: String, account: AccountID, after: TripPosition?, known: [TripPosition], limit: Int,
        db: some TripDatabase
    ) throws -> TripChangesResult {
        guard try tripRole(trip, account: account, db: db) != nil, let row = try tripRow(trip, db: db)
        else { return .notMember }
        if let problem = try historyProblem([after].compactMap({ $0 }) + known, row: row, db: db) {
            return problem
        }
        if let after, after.revision < row.purgedRevision { return .cursorExpired }
        var fields = try db.historyRows(
            """
            SELECT f.item_id, f.field, f.value, f.value_hash, f.revision, f.seen_revision, a.username, f.seq
            FROM trip_fields f LEFT JOIN accounts a ON a.id = f.author_id
            WHERE f.trip_id = $1 AND f.revision > $2 ORDER BY f.revision LIMIT $3
            """, [.text(trip), .int(Int64(after?.revision ?? 0)), .int(Int64(limit + 1))]
        ) { (field: try tripField($0), seq: try $0.int64At(7)) }
        let hasMore = fields.count > limit
        if hasMore { fields.removeLast(fields.count - limit) }
        let next =
            if hasMore, let last = fields.last {
                TripPosition(revision: last.field.revision, feed: try db.feedPosition(last.seq))
            } else {
                try tripPosition(row, db: db)
            }
        return .page(fields: fields.map(\.field), hasMore: hasMore, next: next)
    }

    /// ``TripStorage/tripHistoryHolds(_:account:positions:)`` in the caller's transaction.
    static func tripHistoryHolds(
        _ trip: String, account: AccountID, positions: [TripPosition], db: some TripDatabase
    ) throws -> Bool? {
        guard try tripRole(trip, account: account, db: db) != nil, let row = try tripRow(trip, db: db)
        else { return nil }
        return try historyProblem(positions, row: row, db: db) == nil
    }

    /// `.cursorAhead` or `.cursorFromAnotherHistory` for the first of `positions` this history
    /// does not hold; nil when it holds them all.
    private static func historyProblem(_ positions: [TripPosition], row: TripRow, db: some TripDatabase)
        throws -> TripChangesResult?
    {
        let counter = try db.currentFeedSeq()
        for position in positions {
            if position.revision > row.revision || position.feed.seq > counter { return .cursorAhead }
            guard position.feed.matches(storedMark: try db.storedFeedMark(position.feed.seq)) else {
                return .cursorFromAnotherHistory
            }
        }
        return nil
    }

    /// ``TripStorage/tripSnapshot(_:account:)`` in the caller's transaction.
    static func tripSnapshot(_ trip: String, account: AccountID, db: some TripDatabase) throws -> TripSnapshot? {
        guard let entry = try tripEntry(trip, account: account, db: db), let row = try tripRow(trip, db: db)
        else { return nil }
        let fields = try db.historyRows(
            """
            SELECT f.item_id, f.field, f.value, f.value_hash, f.revision, f.seen_revision, a.username
            FROM trip_fields f LEFT JOIN accounts a ON a.id = f.author_id
            WHERE f.trip_id = $1 ORDER BY f.revision
            """, [.text(trip)], map: tripField)
        return TripSnapshot(entry: entry, fields: fields, position: try tripPosition(row, db: db))
    }

    /// ``TripStorage/tripsFeed(account:since:limit:)`` in the caller's transaction.
    static func tripsFeed(account: AccountID, since: FeedPosition?, limit: Int, db: some TripDatabase) throws
        -> TripsFeedResult
    {
        if let since {
            if since.seq > (try db.currentFeedSeq()) { return .cursorAhead }
            guard since.matches(storedMark: try db.storedFeedMark(since.seq)) else {
                return .cursorFromAnotherHistory
            }
        }
        // A trip the account was removed from (or left) shows once more, marked removed.
        var rows = try db.historyRows(
            """
            SELECT * FROM (
                SELECT \(entryColumns), m.feed_seq, false AS removed
                FROM trip_members m JOIN trips t ON t.trip_id = m.trip_id
                WHERE m.account_id = $1 AND m.feed_seq > $2
                UNION ALL
                SELECT d.trip_id, '', d.role, false, 0, 1, false, false, NULL, d.feed_seq, true
                FROM trip_departures d WHERE d.account_id = $1 AND d.feed_seq > $2
            ) AS entries ORDER BY feed_seq LIMIT $3
            """, [.int(account.rawValue), .int(since?.seq ?? 0), .int(Int64(limit + 1))]
        ) { row in
            var entry = try tripEntry(row)
            if try row.boolAt(10) { entry.removed = true }
            return (entry: entry, seq: try row.int64At(9))
        }
        let hasMore = rows.count > limit
        if hasMore { rows.removeLast(rows.count - limit) }
        let newest =
            try db.historyRows(
                """
                SELECT MAX(seq) FROM (
                    SELECT COALESCE(MAX(feed_seq), 0) AS seq FROM trip_members WHERE account_id = $1
                    UNION ALL
                    SELECT COALESCE(MAX(feed_seq), 0) FROM trip_departures WHERE account_id = $1
                ) AS newest
                """,
                [.int(account.rawValue)]
            ) { try $0.int64At(0) }.first ?? 0
        let next: FeedPosition
        if hasMore, let last = rows.last {
            next = try db.feedPosition(last.seq)
        } else if let since, since.seq >= newest {
            next = since
        } else {
            next = try db.feedPosition(newest)
        }
        return .page(trips: rows.map(\.entry), hasMore: hasMore, next: next)
    }

    // MARK: - Retention

    /// ``TripStorage/purgeTripTombstones(olderThan:limit:)`` in the caller's transaction: the
    /// oldest `limit` tombstones due. Their trips are locked first, in id order (as an ops request
    /// locks its one trip), and each tombstone is read again under the lock: one restored
    /// meanwhile stays.
    static func purgeTripTombstones(olderThan cutoff: Date, limit: Int, db: some TripDatabase) throws
        -> TripPurgeBatch
    {
        let before = HistoryValue.int(cutoff.storedMilliseconds)
        let oldTombstones = "field = 'deleted' AND value = 'true' AND updated_at < $1"
        let due = try db.historyRows(
            "SELECT trip_id, item_id FROM trip_fields WHERE \(oldTombstones) ORDER BY updated_at, trip_id, item_id LIMIT $2",
            [before, .int(Int64(limit))]
        ) { (trip: try $0.textAt(0), item: try $0.textAt(1)) }
        let dueTrips = Array(Set(due.map(\.trip))).sorted()
        if !dueTrips.isEmpty {
            let placeholders = dueTrips.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
            try db.lockRows(
                "SELECT trip_id FROM trips WHERE trip_id IN (\(placeholders)) ORDER BY trip_id",
                dueTrips.map(HistoryValue.text))
        }
        var purged = 0
        for tombstone in due {
            let stillDue = try db.historyRows(
                "SELECT 1 FROM trip_fields WHERE trip_id = $2 AND item_id = $3 AND \(oldTombstones)",
                [before, .text(tombstone.trip), .text(tombstone.item)]
            ) { _ in true }
            guard !stillDue.isEmpty else { continue }
            // An item goes with all its fields; a deleted trip keeps only its `deleted` field,
            // so its feed entry and snapshot still say it was deleted.
            let scope =
                tombstone.item.isEmpty
                ? "trip_id = $1 AND NOT (item_id = '' AND field = 'deleted')"
                : "trip_id = $1 AND item_id = $2"
            let values: [HistoryValue] =
                tombstone.item.isEmpty ? [.text(tombstone.trip)] : [.text(tombstone.trip), .text(tombstone.item)]
            let newest = try db.historyRows("SELECT MAX(revision) FROM trip_fields WHERE \(scope)", values) {
                try $0.optionalInt64At(0)
            }
            guard let newest = newest.first ?? nil else { continue }
            try db.historyRun("DELETE FROM trip_fields WHERE \(scope)", values)
            // The purged values no longer count against the trip's bytes (TripQuota).
            try db.historyRun(
                """
                UPDATE trips SET purged_revision = CASE WHEN purged_revision < $1 THEN $1 ELSE purged_revision END,
                    value_bytes = COALESCE((SELECT SUM(LENGTH(value)) FROM trip_fields
                        WHERE trip_fields.trip_id = $2 AND trip_fields.field NOT LIKE 'member.%'), 0)
                WHERE trip_id = $2
                """, [.int(newest), .text(tombstone.trip)])
            purged += 1
        }
        let requests = try db.historyRun(
            """
            DELETE FROM trip_op_requests WHERE (account_id, trip_id, op_id) IN (
                SELECT account_id, trip_id, op_id FROM trip_op_requests WHERE created_at < $1 LIMIT $2)
            """, [before, .int(Int64(limit))])
        return TripPurgeBatch(
            purged: purged, opRequests: requests, mayHaveMore: due.count >= limit || requests >= limit)
    }

    // MARK: - Rows

    /// The trip's newest position: its revision and its newest change's feed position.
    private static func tripPosition(_ row: TripRow, db: some TripDatabase) throws -> TripPosition {
        TripPosition(revision: row.revision, feed: try db.feedPosition(row.seq))
    }

    /// A `trip_fields` row read as item, field, value, hash, revision, seen revision and the
    /// author's username.
    static func tripField(_ row: any HistoryRow) throws -> TripFieldDTO {
        let item = try row.textAt(0)
        return TripFieldDTO(
            item: item.isEmpty ? nil : item, field: try row.textAt(1), value: try row.optionalTextAt(2),
            valueHash: try row.optionalTextAt(3), revision: Int(try row.int64At(4)),
            seenRevision: try row.optionalInt64At(5).map(Int.init), author: try row.optionalTextAt(6))
    }
}
