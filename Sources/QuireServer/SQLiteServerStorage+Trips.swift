import Foundation
import QuireSQLite
import QuireWire

/// ``TripStorage`` writes in the SQLite file: creating a trip and applying ops requests. Reads
/// and the purge are in `SQLiteServerStorage+TripReads.swift`.
extension SQLiteServerStorage: TripStorage {
    public func createTrip(_ trip: String, account: AccountID, wrappedKey: String, now: Date)
        throws -> TripCreation
    {
        let db = try open()
        return try db.transaction {
            if let entry = try tripEntry(trip, account: account, db: db) {
                return .alreadyMember(entry)
            }
            if try tripRow(trip, db: db) != nil { return .takenByAnother }
            let position = try nextSeq(db, now: now)
            try db.run(
                "INSERT INTO trips (trip_id, revision, seq, created_at) VALUES (?, 0, ?, ?)",
                trip, position.seq, now.storedMilliseconds)
            try db.run(
                """
                INSERT INTO trip_members (trip_id, account_id, role, wrapped_key, feed_seq, joined_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """, trip, account.rawValue, TripRole.owner.rawValue, wrappedKey, position.seq,
                now.storedMilliseconds)
            return .created(
                TripEntryDTO(
                    id: trip, wrappedKey: wrappedKey, role: TripRole.owner.rawValue,
                    deleted: false, revision: 0))
        }
    }

    public func applyTripOps(
        _ request: TripOpsRequestDTO, trip: String, account: AccountID, fingerprint: String,
        now: Date, record: @Sendable (TripOpsResponseDTO, TripPosition?) -> Data
    ) throws -> TripOpsResult {
        let db = try open()
        return try db.transaction {
            guard let role = try tripRole(trip, account: account, db: db),
                let row = try tripRow(trip, db: db)
            else { return .notMember }
            guard role.canEdit else { return .readOnly }
            let seen = try db.queryFirst(
                """
                SELECT fingerprint, response_body FROM trip_op_requests
                WHERE account_id = ? AND trip_id = ? AND op_id = ?
                """, account.rawValue, trip, request.opId
            ) { ($0.text(0), $0.blob(1)) }
            if let (recorded, body) = seen {
                return recorded == fingerprint ? .replayed(body: body) : .opIdReused
            }
            let outcome = TripMergeRule.apply(
                request.ops, to: try mergeState(for: request.ops, trip: trip, row: row, db: db))
            var changed: [AccountID] = []
            var written: TripPosition?
            if !outcome.written.isEmpty {
                written = try store(outcome, trip: trip, wasDeleted: row.deleted, now: now, db: db)
                changed = try db.query(
                    "SELECT account_id FROM trip_members WHERE trip_id = ?", trip
                ) { AccountID($0.int64(0)) }
            }
            let body = record(
                TripOpsResponseDTO(results: outcome.results, revision: outcome.revision), written)
            try db.run(
                """
                INSERT INTO trip_op_requests
                    (account_id, trip_id, op_id, fingerprint, response_body, created_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """, account.rawValue, trip, request.opId, fingerprint, body,
                now.storedMilliseconds)
            return .applied(body: body, changed: changed)
        }
    }

    // MARK: - Applying

    /// What ``TripMergeRule/apply(_:to:)`` needs to decide `ops`: the stored state of every
    /// field they name, of each named item's `deleted` field and of the trip's, which named
    /// items exist, and the trip's revision and purge mark.
    private func mergeState(
        for ops: [TripOpDTO], trip: String, row: TripRow, db: SQLiteConnection
    ) throws -> TripMergeState {
        var keys: Set<TripFieldKey> = [.tripTombstone]
        for op in ops {
            let key = TripFieldKey(item: op.item, field: op.field)
            keys.insert(key)
            keys.insert(key.tombstone)
        }
        var fields: [TripFieldKey: TripFieldState] = [:]
        for key in keys {
            fields[key] = try db.queryFirst(
                """
                SELECT value, value_hash, revision FROM trip_fields
                WHERE trip_id = ? AND item_id = ? AND field = ?
                """, trip, Self.storedItem(key.item), key.field
            ) {
                TripFieldState(value: $0.optionalText(0), valueHash: $0.optionalText(1), revision: $0.int(2))
            }
        }
        var knownItems: Set<String> = []
        for item in Set(ops.compactMap(\.item)) {
            let exists = try db.queryFirst(
                "SELECT 1 FROM trip_fields WHERE trip_id = ? AND item_id = ? LIMIT 1", trip, item
            ) { _ in true }
            if exists == true { knownItems.insert(item) }
        }
        return TripMergeState(
            fields: fields, knownItems: knownItems, revision: row.revision,
            purgedRevision: row.purgedRevision)
    }

    /// Writes the fields the ops changed under one new sequence number, moves the trip to the
    /// outcome's revision, and moves every member's trips feed to that number. Returns the trip's
    /// new position.
    private func store(
        _ outcome: TripMergeRule.Outcome, trip: String, wasDeleted: Bool, now: Date,
        db: SQLiteConnection
    ) throws -> TripPosition {
        let position = try nextSeq(db, now: now)
        for (key, state) in outcome.written {
            try db.run(
                """
                INSERT INTO trip_fields
                    (trip_id, item_id, field, value, value_hash, revision, seq, updated_at, seen_revision)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (trip_id, item_id, field) DO UPDATE SET value = excluded.value,
                    value_hash = excluded.value_hash, revision = excluded.revision,
                    seq = excluded.seq, updated_at = excluded.updated_at,
                    seen_revision = excluded.seen_revision
                """, trip, Self.storedItem(key.item), key.field, state.value, state.valueHash,
                state.revision, position.seq, now.storedMilliseconds, state.seenRevision)
        }
        let deleted = outcome.written[.tripTombstone].map(\.isTombstone) ?? wasDeleted
        try db.run(
            "UPDATE trips SET revision = ?, seq = ?, deleted = ? WHERE trip_id = ?",
            outcome.revision, position.seq, deleted, trip)
        try db.run("UPDATE trip_members SET feed_seq = ? WHERE trip_id = ?", position.seq, trip)
        return TripPosition(revision: outcome.revision, feed: position)
    }

    // MARK: - Rows

    /// A trip's row: newest revision, the sequence number of its newest change, whether it is
    /// deleted, and its purge mark.
    struct TripRow {
        var revision: Int
        var seq: Int64
        var deleted: Bool
        var purgedRevision: Int
    }

    func tripRow(_ trip: String, db: SQLiteConnection) throws -> TripRow? {
        try db.queryFirst(
            "SELECT revision, seq, deleted, purged_revision FROM trips WHERE trip_id = ?", trip
        ) { TripRow(revision: $0.int(0), seq: $0.int64(1), deleted: $0.bool(2), purgedRevision: $0.int(3)) }
    }

    /// The account's role in the trip, or nil when it is not a member.
    func tripRole(_ trip: String, account: AccountID, db: SQLiteConnection) throws -> TripRole? {
        try db.queryFirst(
            "SELECT role FROM trip_members WHERE trip_id = ? AND account_id = ?", trip,
            account.rawValue
        ) { TripRole(rawValue: $0.text(0)) } ?? nil
    }

    /// The trip as the account's feed shows it, or nil when the account is not a member.
    func tripEntry(_ trip: String, account: AccountID, db: SQLiteConnection) throws
        -> TripEntryDTO?
    {
        try db.queryFirst(
            """
            SELECT t.trip_id, m.wrapped_key, m.role, t.deleted, t.revision
            FROM trip_members m JOIN trips t ON t.trip_id = m.trip_id
            WHERE m.trip_id = ? AND m.account_id = ?
            """, trip, account.rawValue, map: Self.tripEntry)
    }

    static func tripEntry(_ row: SQLiteRow) -> TripEntryDTO {
        TripEntryDTO(
            id: row.text(0), wrappedKey: row.text(1), role: row.text(2), deleted: row.bool(3),
            revision: row.int(4))
    }

    /// The `item_id` column of a field: '' for the trip's own fields (a primary key column
    /// cannot be NULL).
    static func storedItem(_ item: String?) -> String { item ?? "" }
}
