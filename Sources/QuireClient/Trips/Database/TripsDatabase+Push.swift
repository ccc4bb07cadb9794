import Foundation
import QuireCrypto
import QuireMerge
import QuireSQLite
import QuireTrips
import QuireWire

// MARK: - Pushing: the engine's half

extension TripsDatabase {
    /// A trip with changes to send.
    package struct TripToPush: Sendable, Equatable {
        package var trip: TripID
        /// The server has the trip: no `PUT` needed before its ops.
        package var onServer: Bool
        package var key: SymmetricKey256
        /// Where the trip's changes continue: the history the ops' bases come from.
        package var cursor: Cursor? = nil
    }

    /// The trips with waiting (not refused) changes, the trip of the oldest change first; not a
    /// trip the feed shows deleted, whose changes wait for the person (`TripsDatabase+DeletedTrips`),
    /// unless its restore waits to be sent (a pull that came between the restore and its send).
    package func tripsToPush() throws -> [TripToPush] {
        try connection.query(
            """
            SELECT t.id, t.on_server, t.key, t.cursor FROM trips t
            JOIN (SELECT trip_id, MIN(seq) AS first FROM outbox WHERE rejected = 0 GROUP BY trip_id) o
              ON o.trip_id = t.id
            WHERE t.deleted = 0 OR EXISTS (
                SELECT 1 FROM outbox r WHERE r.trip_id = t.id AND r.item_id = '' AND r.field = 'deleted'
                  AND r.value = 'false' AND r.rejected = 0)
            ORDER BY o.first
            """
        ) { row in
            guard let trip = TripID(row.text(0)), let key = SymmetricKey256(data: row.blob(2)) else { return nil }
            return TripToPush(
                trip: trip, onServer: row.bool(1), key: key, cursor: row.optionalText(3).map(Cursor.init))
        }.compactMap { $0 }
    }

    /// The server has the trip now (its `PUT` was answered).
    package func markOnServer(_ trip: TripID) throws {
        try write { try connection.run("UPDATE trips SET on_server = 1 WHERE id = ?", trip.description) }
    }

    /// The trip's next request, frozen in one transaction; nil when nothing of the trip can be sent.
    ///
    /// A request frozen earlier (a send whose answer was lost, or a crash after freezing) is
    /// handed out again, unchanged, unless it is backing off after failed sends (``ChangeRetry``).
    /// Otherwise the trip's unsent changes, oldest first and at most one per field (later edits
    /// fold), up to `limit` and as many as fit in `bodyLimit` bytes, are sealed with the trip key,
    /// given one new opId and stored with their sealed values. A value too large for any request
    /// is refused here, with a reason that says what to do, and never sent.
    package func nextRequest(for trip: TripID, limit: Int, bodyLimit: Int = WireRoutes.maxBodyBytes) throws
        -> TripOpsRequest?
    {
        try write {
            let now = now().timeIntervalSinceReferenceDate
            let frozen = try connection.query(
                TripsStoredOp.select + " WHERE trip_id = ? AND request_id IS NOT NULL ORDER BY seq",
                bindings: [trip.description], map: TripsStoredOp.read)
            if let first = frozen.first, let opID = first.requestID {
                let waiting = try connection.queryFirst(
                    "SELECT 1 FROM outbox WHERE request_id = ? AND retry_at > ?", opID, now
                ) { _ in true }
                return waiting == true ? nil : TripOpsRequest(trip: trip, opID: opID, ops: frozen)
            }
            guard let keyring = try keyring(trip) else { return nil }
            let sealer = TripSealer(trip: trip, keyring: keyring)
            let candidates = try connection.query(
                TripsStoredOp.select
                    + """
                     WHERE trip_id = ? AND request_id IS NULL AND rejected = 0
                       AND (retry_at IS NULL OR retry_at <= ?)
                    ORDER BY seq
                    """, bindings: [trip.description, now], map: TripsStoredOp.read)
            let opID = UUID.timeOrdered().uuidString.lowercased()
            var chosen: [TripsStoredOp] = []
            var bytes = 512
            for var op in candidates {
                guard chosen.count < max(limit, 1) else { break }
                do {
                    op.sealed = try sealer.seal(op.value, item: op.item, field: op.field)
                } catch let error as TripSealingError where error.kind == .tooLarge {
                    try markRejectedInTransaction(op.seq, reason: error.message)
                    continue
                }
                let size = (op.sealed?.value?.utf8.count ?? 0) + 256
                if !chosen.isEmpty, bytes + size > bodyLimit { break }
                bytes += size
                op.requestID = opID
                try connection.run(
                    "UPDATE outbox SET request_id = ?, sealed_value = ?, value_hash = ? WHERE seq = ?", opID,
                    op.sealed?.value, op.sealed?.valueHash, op.seq)
                chosen.append(op)
            }
            return chosen.isEmpty ? nil : TripOpsRequest(trip: trip, opID: opID, ops: chosen)
        }
    }

    /// What the server answered for one op of a request, the server's value already opened.
    package enum OpAnswer: Sendable, Equatable {
        case applied(revision: Int)
        case conflict(field: String, value: String?, revision: Int)
        case rejected(reason: String)
    }

    /// What became of one op.
    package enum OpOutcome: Sendable, Equatable {
        case applied
        case rejected
        case conflict(ConflictOutcome)
    }

    /// Settles every op of an answered request, in order, in one transaction: each as
    /// ``confirmApplied(_:revision:)``, ``settleConflict(_:field:value:revision:)`` or
    /// ``markRejected(_:reason:)`` says. `position`: where the request left the trip, kept with
    /// the others no pull has checked yet, for the next pull to check (one is not enough: a write
    /// a restored server takes first would hide the one it forgot).
    package func settle(_ request: TripOpsRequest, answers: [OpAnswer], position: Cursor? = nil) throws
        -> [OpOutcome]
    {
        try write {
            if let position {
                let held = try uncheckedPositions(request.trip)
                try connection.run(
                    "UPDATE trips SET known_position = ? WHERE id = ?",
                    (held + [position.rawValue]).joined(separator: ","), request.trip.description)
            }
            return try zip(request.ops, answers).map { op, answer in
                switch answer {
                case .applied(let revision):
                    try confirmApplied(op.seq, revision: revision)
                    return .applied
                case .conflict(let field, let value, let revision):
                    return .conflict(try settleConflict(op.seq, field: field, value: value, revision: revision))
                case .rejected(let reason):
                    try markRejected(op.seq, reason: reason)
                    return .rejected
                }
            }
        }
    }

    /// The server applied the op at `revision`: the op goes, its value becomes the field's
    /// confirmed value (unless the device holds a newer one), and a change of the same field
    /// still queued moves its base to `revision` (seed 002's two-request gap: it builds on this
    /// device's own change, which must not count as a conflict).
    package func confirmApplied(_ seq: Int, revision: Int) throws {
        try write {
            guard let op = try storedOp(seq) else { return }
            try connection.run("DELETE FROM outbox WHERE seq = ?", seq)
            let stored = try storeConfirmed(
                trip: op.trip, item: op.item, field: op.field, value: op.value, revision: revision, mine: true,
                replacing: op.baseValue)
            if stored, let item = op.item, op.field != TripField.deleted.rawValue {
                try offerIfDeletedSince(
                    OwnWrite(item: item.description, field: op.field, value: op.value, revision: revision),
                    trip: op.trip, item: item)
            }
            try connection.run(
                """
                UPDATE outbox SET base_revision = ?, base_value = ?
                WHERE trip_id = ? AND item_id = ? AND field = ? AND request_id IS NULL AND rejected = 0
                  AND seq > ? AND base_revision < ?
                """, revision, op.value, op.trip.description, op.item.storageKey, op.field, seq, revision)
        }
    }

    /// The server will never take the op: it stays, not sent, with its value shown and `reason`
    /// on the field, until the next edit of the field replaces it; an edit already queued behind
    /// it replaces it now. A refused delete or restore goes at once: the item shows as the
    /// server has it.
    package func markRejected(_ seq: Int, reason: String) throws {
        try write { try markRejectedInTransaction(seq, reason: reason) }
    }

    /// Undoes ``markRejected(_:reason:)`` for the ops `condition` (an SQL condition on the outbox,
    /// with its `bindings`) picks: each is unsent again, its attempts forgotten, and goes in the
    /// trip's next request. Inside the caller's transaction.
    func sendRefusedAgain(where condition: String, _ bindings: [any SQLiteBindable]) throws {
        _ = try connection.run(
            """
            UPDATE outbox SET rejected = 0, rejected_reason = NULL, request_id = NULL, sealed_value = NULL,
                value_hash = NULL, attempts = 0, retry_at = NULL, last_error = NULL
            WHERE rejected = 1 AND (\(condition))
            """, bindings: bindings)
    }

    /// ``markRejected(_:reason:)`` for every op of a request the server refused as a whole.
    package func rejectRequest(_ opID: String, reason: String) throws {
        try write {
            let seqs = try connection.query(
                "SELECT seq FROM outbox WHERE request_id = ? ORDER BY seq", opID, map: { $0.int(0) })
            for seq in seqs { try markRejectedInTransaction(seq, reason: reason) }
        }
    }

    /// A send of the request failed in a way that may pass: counts the attempt against each of
    /// its ops, keeps `error` to show, and holds the request back for ``ChangeRetry``. It stays
    /// frozen: the next send is the same request.
    package func recordFailedAttempt(_ opID: String, error: String) throws {
        try write {
            let attempts =
                try connection.queryFirst("SELECT MAX(attempts) FROM outbox WHERE request_id = ?", opID) {
                    $0.int(0)
                } ?? 0
            let retryAt = now().timeIntervalSinceReferenceDate + ChangeRetry.delay(afterAttempts: attempts + 1)
            try connection.run(
                "UPDATE outbox SET attempts = ?, retry_at = ?, last_error = ? WHERE request_id = ?", attempts + 1,
                retryAt, error, opID)
        }
    }

    // MARK: - Helpers

    func storedOp(_ seq: Int) throws -> TripsStoredOp? {
        try connection.queryFirst(TripsStoredOp.select + " WHERE seq = ?", seq, map: TripsStoredOp.read)
    }

    private func markRejectedInTransaction(_ seq: Int, reason: String) throws {
        guard let op = try storedOp(seq) else { return }
        let queuedBehind = try fieldOps(trip: op.trip, item: op.item.storageKey, field: op.field)
            .contains { $0.seq > seq && $0.isUnsent }
        // A refused delete (or restore) goes: the item shows as the server has it, as a refused
        // note delete brings the note back, instead of staying hidden here alone (seed 5079).
        if queuedBehind || op.field == TripField.deleted.rawValue {
            try connection.run("DELETE FROM outbox WHERE seq = ?", seq)
        } else {
            try connection.run(
                """
                UPDATE outbox SET rejected = 1, rejected_reason = ?, request_id = NULL, sealed_value = NULL,
                    value_hash = NULL
                WHERE seq = ?
                """, reason, seq)
            // A refused change of an item whose delete arrived meanwhile would be shown nowhere:
            // it joins the item's restore offer, as a refused change does when the delete comes
            // after it (companion seed 2141: a request waiting behind a refused one was refused
            // only after the pull that brought the delete).
            guard let item = op.item,
                let tombstone = try connection.queryFirst(
                    """
                    SELECT revision, seen_revision FROM fields
                    WHERE trip_id = ? AND item_id = ? AND field = 'deleted' AND value = 'true'
                    """, op.trip.description, item.description, map: { (revision: $0.int(0), seen: $0.optionalInt(1)) })
            else { return }
            try offerUnseenEdits(
                trip: op.trip, item: item, deleteRevision: tombstone.revision, seenRevision: tombstone.seen, own: [])
        }
    }

    /// Stores the server's value of a field when it is newer than the one held (applying by
    /// (item, field, revision) ignores anything not newer); makes the item
    /// known. `mine`: the value is this device's own write, acknowledged (an edit an item's delete
    /// may not have seen); it marks the value held at that revision too, which a pull brought
    /// while the answer was lost (seed 3550). Returns whether it stored it.
    @discardableResult
    func storeConfirmed(
        trip: TripID, item: ItemID?, field: String, value: String?, revision: Int, mine: Bool = false,
        replacing baseValue: String? = nil, seenRevision: Int? = nil, author: String? = nil
    ) throws -> Bool {
        if let item {
            try connection.run(
                "INSERT INTO items (id, trip_id) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", item.description,
                trip.description)
        }
        return try connection.run(
            """
            INSERT INTO fields (trip_id, item_id, field, value, revision, mine, mine_base, seen_revision, author)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (trip_id, item_id, field) DO UPDATE SET value = excluded.value, revision = excluded.revision,
                mine = excluded.mine, mine_base = excluded.mine_base, seen_revision = excluded.seen_revision,
                author = excluded.author
            WHERE excluded.revision > fields.revision
               OR (excluded.mine AND NOT fields.mine AND excluded.revision = fields.revision
                   AND excluded.value IS fields.value)
            """, trip.description, item.storageKey, field, value, revision, mine, mine ? baseValue : nil,
            seenRevision, mine ? nil : author) > 0
    }

    /// Marks every waiting change of the trip refused (the server will not take the trip itself),
    /// as ``markRejected(_:reason:)`` would each; returns how many.
    package func rejectWaitingChanges(of trip: TripID, reason: String) throws -> Int {
        try write {
            let seqs = try connection.query(
                "SELECT seq FROM outbox WHERE trip_id = ? AND rejected = 0 ORDER BY seq", trip.description,
                map: { $0.int(0) })
            for seq in seqs { try markRejectedInTransaction(seq, reason: reason) }
            return seqs.count
        }
    }

    /// The trip's key; nil for a trip this device does not have.
    package func tripKey(_ trip: TripID) throws -> SymmetricKey256? {
        try connection.queryFirst("SELECT key FROM trips WHERE id = ?", trip.description) {
            SymmetricKey256(data: $0.blob(0))
        } ?? nil
    }
}
