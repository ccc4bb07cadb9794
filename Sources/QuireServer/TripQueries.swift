import Foundation
import QuireWire

/// The trips' rules and statements, written once for both stores (as ``NoteHistoryQueries`` is):
/// each ``TripStorage`` method of `SQLiteServerStorage` and `PostgresServerStorage` is one of
/// these inside the store's own transaction. Reads and the purge are in `TripQueries+Reads.swift`.
///
/// Concurrent writers of one trip (two instances on one PostgreSQL database) run one after
/// another: an ops request locks the trip's row before it reads anything the rule decides on,
/// and the rows of the members' accounts before it takes its sequence number, as a note write
/// locks its account's row, so each member's trips feed is commit-ordered too. Locks are always
/// taken trip first, then accounts in id order. On SQLite the locks are no-ops: its one connection
/// runs one transaction at a time.
enum TripQueries {
    // MARK: - Writing

    /// ``TripStorage/createTrip(_:account:wrappedKey:quota:now:)`` in the caller's transaction.
    static func createTrip(
        _ trip: String, account: AccountID, wrappedKey: String, quota: TripQuota, now: Date, db: some TripDatabase
    ) throws -> TripCreation {
        try lockFeeds(of: "SELECT id FROM accounts WHERE id = $1", [.int(account.rawValue)], db: db)
        if let entry = try tripEntry(trip, account: account, db: db) { return .alreadyMember(entry) }
        if try tripRow(trip, db: db) != nil { return .takenByAnother }
        if quota.maxOwnedTrips < Int.max {
            // The account's row is locked above: two creations of one account count one by one.
            let owned =
                try db.historyRows(
                    """
                    SELECT COUNT(*) FROM trip_members JOIN trips ON trips.trip_id = trip_members.trip_id
                    WHERE trip_members.account_id = $1 AND trip_members.role = $2 AND NOT trips.deleted
                    """, [.int(account.rawValue), .text(TripRole.owner.rawValue)]
                ) { try $0.int64At(0) }.first ?? 0
            if owned >= Int64(quota.maxOwnedTrips) { return .quotaExceeded(.ownedTrips(quota.maxOwnedTrips)) }
        }
        let position = try db.nextFeedPosition(now: now)
        let inserted = try db.historyRun(
            """
            INSERT INTO trips (trip_id, revision, seq, created_at) VALUES ($1, 0, $2, $3)
            ON CONFLICT (trip_id) DO NOTHING
            """, [.text(trip), .int(position.seq), .int(now.storedMilliseconds)])
        guard inserted == 1 else {
            // Created by a transaction that committed after this one looked (PostgreSQL).
            return try tripEntry(trip, account: account, db: db).map(TripCreation.alreadyMember)
                ?? .takenByAnother
        }
        try db.historyRun(
            """
            INSERT INTO trip_members (trip_id, account_id, role, wrapped_key, feed_seq, joined_at)
            VALUES ($1, $2, $3, $4, $5, $6)
            """,
            [
                .text(trip), .int(account.rawValue), .text(TripRole.owner.rawValue), .text(wrappedKey),
                .int(position.seq), .int(now.storedMilliseconds),
            ])
        return .created(
            TripEntryDTO(
                id: trip, wrappedKey: wrappedKey, role: TripRole.owner.rawValue, deleted: false,
                revision: 0))
    }

    /// ``TripStorage/applyTripOps(_:trip:account:fingerprint:quota:now:record:)`` in the caller's
    /// transaction. The trip's row stays locked from before the op id is looked up to the commit,
    /// so a second request with the same op id waits and then replays the first one's answer.
    static func applyTripOps(
        _ request: TripOpsRequestDTO, trip: String, account: AccountID, fingerprint: String,
        quota: TripQuota, now: Date, record: (TripOpsResponseDTO, TripPosition?) -> Data, db: some TripDatabase
    ) throws -> TripOpsResult {
        guard let role = try tripRole(trip, account: account, db: db),
            let row = try tripRow(trip, locked: true, db: db)
        else { return .notMember }
        guard role.canEdit else { return .readOnly }
        let seen = try db.historyRows(
            """
            SELECT fingerprint, response_body FROM trip_op_requests
            WHERE account_id = $1 AND trip_id = $2 AND op_id = $3
            """, [.int(account.rawValue), .text(trip), .text(request.opId)]
        ) { (try $0.textAt(0), try $0.bytesAt(1)) }.first
        if let (recorded, body) = seen {
            return recorded == fingerprint ? .replayed(body: body) : .opIdReused
        }
        // Checked after the replay: a request applied before the key rotated still answers.
        let sealed = request.ops.filter { $0.field != WireRoutes.deletedField }.compactMap(\.value)
        if sealed.contains(where: { TripKeyEpoch.of($0) != row.keyEpoch }) {
            return .keyRotated(current: row.keyEpoch)
        }
        // Sealed with another key of the current epoch (a server restored from before a
        // rotation and rotated again gives an epoch out twice): refused like another epoch.
        if let check = request.keyCheck, !sealed.isEmpty, row.keyEpoch > TripKeyEpoch.first,
            let stored = try db.historyRows(
                "SELECT key_check FROM trip_key_chain WHERE trip_id = $1 AND epoch = $2",
                [.text(trip), .int(Int64(row.keyEpoch))]
            ) { try $0.optionalTextAt(0) }.first ?? nil, stored != check
        {
            return .keyRotated(current: row.keyEpoch)
        }
        var state = try mergeState(for: request.ops, trip: trip, row: row, db: db)
        state.mayDeleteTrip = role == .owner
        let outcome = TripMergeRule.apply(request.ops, to: state)
        let growth = valueBytesGrowth(of: outcome, over: state)
        if growth > 0, row.valueBytes > quota.maxBytesPerTrip - growth {
            return .quotaExceeded(.tripBytes(quota.maxBytesPerTrip))
        }
        var changed: [AccountID] = []
        var written: TripPosition?
        if !outcome.written.isEmpty {
            written = try store(
                outcome, growth: growth, trip: trip, author: account, wasDeleted: row.deleted, now: now, db: db)
            changed = try db.historyRows(
                "SELECT account_id FROM trip_members WHERE trip_id = $1 ORDER BY account_id", [.text(trip)]
            ) { AccountID(try $0.int64At(0)) }
        }
        let body = record(TripOpsResponseDTO(results: outcome.results, revision: outcome.revision), written)
        try db.historyRun(
            """
            INSERT INTO trip_op_requests
                (account_id, trip_id, op_id, fingerprint, response_body, created_at)
            VALUES ($1, $2, $3, $4, $5, $6)
            """,
            [
                .int(account.rawValue), .text(trip), .text(request.opId), .text(fingerprint),
                .bytes(body), .int(now.storedMilliseconds),
            ])
        return .applied(body: body, changed: changed)
    }

    /// What ``TripMergeRule/apply(_:to:)`` needs to decide `ops`: the stored state of every
    /// field they name, of each named item's `deleted` field and of the trip's, which named
    /// items exist, and the trip's revision and purge mark.
    private static func mergeState(
        for ops: [TripOpDTO], trip: String, row: TripRow, db: some TripDatabase
    ) throws -> TripMergeState {
        var keys: Set<TripFieldKey> = [.tripTombstone]
        for op in ops {
            let key = TripFieldKey(item: op.item, field: op.field)
            keys.insert(key)
            keys.insert(key.tombstone)
        }
        var fields: [TripFieldKey: TripFieldState] = [:]
        for key in keys {
            fields[key] = try db.historyRows(
                """
                SELECT value, value_hash, revision, seen_revision FROM trip_fields
                WHERE trip_id = $1 AND item_id = $2 AND field = $3
                """, [.text(trip), .text(storedItem(key.item)), .text(key.field)]
            ) {
                TripFieldState(
                    value: try $0.optionalTextAt(0), valueHash: try $0.optionalTextAt(1),
                    revision: Int(try $0.int64At(2)), seenRevision: try $0.optionalInt64At(3).map(Int.init))
            }.first
        }
        var itemRevisions: [String: Int] = [:]
        for item in Set(ops.compactMap(\.item)) {
            itemRevisions[item] =
                try db.historyRows(
                    "SELECT MAX(revision) FROM trip_fields WHERE trip_id = $1 AND item_id = $2",
                    [.text(trip), .text(item)]
                ) { try $0.optionalInt64At(0).map(Int.init) }.first ?? nil
        }
        return TripMergeState(
            fields: fields, knownItems: Set(itemRevisions.keys), itemRevisions: itemRevisions, revision: row.revision,
            purgedRevision: row.purgedRevision)
    }

    /// Writes the fields the ops changed under one new sequence number (taken with the members'
    /// accounts locked), moves the trip to the outcome's revision, and moves every member's trips
    /// feed to that number. Returns the trip's new position.
    private static func store(
        _ outcome: TripMergeRule.Outcome, growth: Int64, trip: String, author: AccountID, wasDeleted: Bool, now: Date,
        db: some TripDatabase
    ) throws -> TripPosition {
        try lockFeeds(
            of: "SELECT account_id FROM trip_members WHERE trip_id = $1", [.text(trip)], db: db)
        let position = try db.nextFeedPosition(now: now)
        for (key, state) in outcome.written {
            try db.historyRun(
                """
                INSERT INTO trip_fields
                    (trip_id, item_id, field, value, value_hash, revision, seq, updated_at, seen_revision, author_id)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                ON CONFLICT (trip_id, item_id, field) DO UPDATE SET value = excluded.value,
                    value_hash = excluded.value_hash, revision = excluded.revision,
                    seq = excluded.seq, updated_at = excluded.updated_at,
                    seen_revision = excluded.seen_revision, author_id = excluded.author_id
                """,
                [
                    .text(trip), .text(storedItem(key.item)), .text(key.field), optional(state.value),
                    optional(state.valueHash), .int(Int64(state.revision)), .int(position.seq),
                    .int(now.storedMilliseconds), state.seenRevision.map { .int(Int64($0)) } ?? .null,
                    .int(author.rawValue),
                ])
        }
        let deleted = outcome.written[.tripTombstone].map(\.isTombstone) ?? wasDeleted
        try db.historyRun(
            "UPDATE trips SET revision = $1, seq = $2, deleted = $3, value_bytes = value_bytes + $4 WHERE trip_id = $5",
            [.int(Int64(outcome.revision)), .int(position.seq), .bool(deleted), .int(growth), .text(trip)])
        try db.historyRun(
            "UPDATE trip_members SET feed_seq = $1 WHERE trip_id = $2", [.int(position.seq), .text(trip)])
        return TripPosition(revision: outcome.revision, feed: position)
    }

    /// How many bytes the outcome's values add to the trip's (``TripRow/valueBytes``): each
    /// written value's length less the one it replaces; negative when it shrinks.
    private static func valueBytesGrowth(of outcome: TripMergeRule.Outcome, over state: TripMergeState) -> Int64 {
        outcome.written.reduce(0) { sum, entry in
            let before = state.fields[entry.key]?.value?.utf8.count ?? 0
            return sum + Int64((entry.value.value?.utf8.count ?? 0) - before)
        }
    }

    /// Locks the rows of the accounts `members` (a query of account ids) selects, in id order,
    /// so a write taking a sequence number for their trips feeds commits before the next one
    /// takes its number (see `PostgresServerStorage`).
    private static func lockFeeds(of members: String, _ values: [HistoryValue], db: some TripDatabase) throws {
        try db.lockRows("SELECT id FROM accounts WHERE id IN (\(members)) ORDER BY id", values)
    }

    // MARK: - Rows

    /// The trip's row, or nil when there is none; `locked`: held against other writers until the
    /// transaction ends.
    static func tripRow(_ trip: String, locked: Bool = false, db: some TripDatabase) throws -> TripRow? {
        let sql =
            "SELECT revision, seq, deleted, purged_revision, key_epoch, rekey_due, value_bytes FROM trips WHERE trip_id = $1"
        return try db.historyRows(locked ? "\(sql) \(db.rowLock)" : sql, [.text(trip)]) {
            TripRow(
                revision: Int(try $0.int64At(0)), seq: try $0.int64At(1), deleted: try $0.boolAt(2),
                purgedRevision: Int(try $0.int64At(3)), keyEpoch: Int(try $0.int64At(4)), rekeyDue: try $0.boolAt(5),
                valueBytes: try $0.int64At(6))
        }.first
    }

    /// The account's role in the trip, or nil when it is not a member.
    static func tripRole(_ trip: String, account: AccountID, db: some TripDatabase) throws -> TripRole? {
        try db.historyRows(
            "SELECT role FROM trip_members WHERE trip_id = $1 AND account_id = $2",
            [.text(trip), .int(account.rawValue)]
        ) { TripRole(rawValue: try $0.textAt(0)) }.first ?? nil
    }

    /// The trip as the account's feed shows it, or nil when the account is not a member.
    static func tripEntry(_ trip: String, account: AccountID, db: some TripDatabase) throws -> TripEntryDTO? {
        try db.historyRows(
            """
            SELECT \(entryColumns) FROM trip_members m JOIN trips t ON t.trip_id = m.trip_id
            WHERE m.trip_id = $1 AND m.account_id = $2
            """, [.text(trip), .int(account.rawValue)], map: tripEntry
        ).first
    }

    /// The columns ``tripEntry(_:)`` reads, of `trip_members m` joined with `trips t`.
    static let entryColumns = """
        t.trip_id, m.wrapped_key, m.role, t.deleted, t.revision, m.key_epoch, m.key_sealed,
        (m.role = 'owner' AND t.rekey_due),
        (SELECT f.seen_revision FROM trip_fields f
         WHERE f.trip_id = t.trip_id AND f.item_id = '' AND f.field = 'deleted' AND f.value = 'true')
        """

    /// A row whose first nine columns are ``entryColumns``: a trip's id, the member's wrapped
    /// key and role, the trip's `deleted` and revision, the epoch and form of the member's key,
    /// whether the member is an owner who should rotate the key, and what the trip's delete had
    /// seen. Epoch 1, a notes-wrapped
    /// key and no rotation due are left out, as before keys rotated.
    static func tripEntry(_ row: any HistoryRow) throws -> TripEntryDTO {
        let epoch = Int(try row.int64At(5))
        return TripEntryDTO(
            id: try row.textAt(0), wrappedKey: try row.textAt(1), role: try row.textAt(2),
            deleted: try row.boolAt(3), revision: Int(try row.int64At(4)),
            keyEpoch: TripKeyEpoch.shown(epoch),
            keyForm: try row.boolAt(6) ? TripKeyEpoch.sealedForm : nil,
            rekeyDue: try row.boolAt(7) ? true : nil,
            deleteSeenRevision: try row.boolAt(3) ? try row.optionalInt64At(8).map { Int($0) } : nil)
    }

    /// The `item_id` column of a field: '' for the trip's own fields (a primary key column
    /// cannot be NULL).
    static func storedItem(_ item: String?) -> String { item ?? "" }

    private static func optional(_ text: String?) -> HistoryValue { text.map(HistoryValue.text) ?? .null }
}

/// A trip's row: newest revision, the sequence number of its newest change, whether it is
/// deleted, its purge mark, its key epoch, and whether a member left since the key last rotated.
struct TripRow: Sendable {
    var revision: Int
    var seq: Int64
    var deleted: Bool
    var purgedRevision: Int
    var keyEpoch: Int = TripKeyEpoch.first
    var rekeyDue = false
    /// The bytes of the trip's values as ops wrote them (member entries excepted): what
    /// ``TripQuota/maxBytesPerTrip`` bounds. Kept by each ops request and by the purge.
    var valueBytes: Int64 = 0
}
