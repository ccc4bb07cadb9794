import Foundation
import QuireSQLite
import QuireWire

/// ``TripStorage`` reads in the SQLite file (a trip's changes, its snapshot, the account's trips
/// feed) and the purge of trip tombstones.
extension SQLiteServerStorage {
    public func tripChanges(
        _ trip: String, account: AccountID, after: TripPosition?, known: [TripPosition], limit: Int
    ) throws -> TripChangesResult {
        let db = try open()
        return try db.transaction {
            guard try tripRole(trip, account: account, db: db) != nil,
                let row = try tripRow(trip, db: db)
            else { return .notMember }
            if let problem = try historyProblem([after].compactMap({ $0 }) + known, row: row, db: db) {
                return problem
            }
            if let after, after.revision < row.purgedRevision { return .cursorExpired }
            var fields = try db.query(
                """
                SELECT item_id, field, value, value_hash, revision, seen_revision, seq FROM trip_fields
                WHERE trip_id = ? AND revision > ? ORDER BY revision LIMIT ?
                """, trip, after?.revision ?? 0, limit + 1
            ) { (field: Self.tripField($0), seq: $0.int64(6)) }
            let hasMore = fields.count > limit
            if hasMore { fields.removeLast(fields.count - limit) }
            let next =
                if hasMore, let last = fields.last {
                    TripPosition(revision: last.field.revision, feed: try position(last.seq, db: db))
                } else {
                    try tripPosition(row, db: db)
                }
            return .page(fields: fields.map(\.field), hasMore: hasMore, next: next)
        }
    }

    public func tripHistoryHolds(_ trip: String, account: AccountID, positions: [TripPosition]) throws -> Bool? {
        let db = try open()
        return try db.transaction {
            guard try tripRole(trip, account: account, db: db) != nil, let row = try tripRow(trip, db: db)
            else { return nil }
            return try historyProblem(positions, row: row, db: db) == nil
        }
    }

    /// `.cursorAhead` or `.cursorFromAnotherHistory` for the first of `positions` this history
    /// does not hold; nil when it holds them all.
    private func historyProblem(_ positions: [TripPosition], row: TripRow, db: SQLiteConnection) throws
        -> TripChangesResult?
    {
        let counter = try currentSeq(db)
        for position in positions {
            if position.revision > row.revision || position.feed.seq > counter { return .cursorAhead }
            guard position.feed.matches(storedMark: try storedMark(position.feed.seq, db: db)) else {
                return .cursorFromAnotherHistory
            }
        }
        return nil
    }

    public func tripSnapshot(_ trip: String, account: AccountID) throws -> TripSnapshot? {
        let db = try open()
        return try db.transaction {
            guard let entry = try tripEntry(trip, account: account, db: db),
                let row = try tripRow(trip, db: db)
            else { return nil }
            let fields = try db.query(
                """
                SELECT item_id, field, value, value_hash, revision, seen_revision FROM trip_fields
                WHERE trip_id = ? ORDER BY revision
                """, trip, map: Self.tripField)
            return TripSnapshot(entry: entry, fields: fields, position: try tripPosition(row, db: db))
        }
    }

    public func tripsFeed(account: AccountID, since: FeedPosition?, limit: Int) throws
        -> TripsFeedResult
    {
        let db = try open()
        return try db.transaction {
            if let since {
                if since.seq > (try currentSeq(db)) { return .cursorAhead }
                guard since.matches(storedMark: try storedMark(since.seq, db: db)) else {
                    return .cursorFromAnotherHistory
                }
            }
            var rows = try db.query(
                """
                SELECT t.trip_id, m.wrapped_key, m.role, t.deleted, t.revision, m.feed_seq
                FROM trip_members m JOIN trips t ON t.trip_id = m.trip_id
                WHERE m.account_id = ? AND m.feed_seq > ? ORDER BY m.feed_seq LIMIT ?
                """, account.rawValue, since?.seq ?? 0, limit + 1
            ) { (entry: Self.tripEntry($0), seq: $0.int64(5)) }
            let hasMore = rows.count > limit
            if hasMore { rows.removeLast(rows.count - limit) }
            let newest =
                try db.queryFirst(
                    "SELECT COALESCE(MAX(feed_seq), 0) FROM trip_members WHERE account_id = ?",
                    account.rawValue
                ) { $0.int64(0) } ?? 0
            let next: FeedPosition
            if hasMore, let last = rows.last {
                next = try position(last.seq, db: db)
            } else if let since, since.seq >= newest {
                next = since
            } else {
                next = try position(newest, db: db)
            }
            return .page(trips: rows.map(\.entry), hasMore: hasMore, next: next)
        }
    }

    // MARK: - Retention

    public func purgeTripTombstones(olderThan cutoff: Date) throws -> Int {
        let db = try open()
        let limit = cutoff.storedMilliseconds
        return try db.transaction {
            let tombstones = try db.query(
                """
                SELECT trip_id, item_id FROM trip_fields
                WHERE field = 'deleted' AND value = 'true' AND updated_at < ?
                """, limit
            ) { (trip: $0.text(0), item: $0.text(1)) }
            var purged = 0
            for tombstone in tombstones {
                // An item goes with all its fields; a deleted trip keeps only its `deleted`
                // field, so its feed entry and snapshot still say it was deleted.
                let scope =
                    tombstone.item.isEmpty
                    ? "trip_id = ?1 AND NOT (item_id = '' AND field = 'deleted')"
                    : "trip_id = ?1 AND item_id = ?2"
                let bindings: [SQLiteBindable] =
                    tombstone.item.isEmpty ? [tombstone.trip] : [tombstone.trip, tombstone.item]
                let newest = try db.query(
                    "SELECT MAX(revision) FROM trip_fields WHERE \(scope)", bindings: bindings
                ) { $0.optionalInt(0) }
                guard let newest = newest.first ?? nil else { continue }
                try db.run("DELETE FROM trip_fields WHERE \(scope)", bindings: bindings)
                try db.run(
                    "UPDATE trips SET purged_revision = MAX(purged_revision, ?) WHERE trip_id = ?",
                    newest, tombstone.trip)
                purged += 1
            }
            try db.run("DELETE FROM trip_op_requests WHERE created_at < ?", limit)
            return purged
        }
    }

    // MARK: - Rows

    /// The trip's newest position: its revision and its newest change's feed position.
    private func tripPosition(_ row: TripRow, db: SQLiteConnection) throws -> TripPosition {
        TripPosition(revision: row.revision, feed: try position(row.seq, db: db))
    }

    /// A `trip_fields` row read as item, field, value, hash, revision and seen revision.
    static func tripField(_ row: SQLiteRow) -> TripFieldDTO {
        let item = row.text(0)
        return TripFieldDTO(
            item: item.isEmpty ? nil : item, field: row.text(1), value: row.optionalText(2),
            valueHash: row.optionalText(3), revision: row.int(4), seenRevision: row.optionalInt(5))
    }
}
