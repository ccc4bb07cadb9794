import Foundation
import QuirePostgres

/// Note writes in the PostgreSQL store, with ``SQLiteServerStorage``'s rules exactly. Each write
/// (and each batch) is one transaction that first locks the account's row, which makes the
/// account's feed commit-ordered (see ``PostgresServerStorage``).
extension PostgresServerStorage {
    public func write(
        _ write: NoteWrite, account: AccountID, writer: SessionID?, idempotency: IdempotencyKey,
        quota: NoteQuota, now: Date, record: @escaping @Sendable (NoteWriteOutcome) -> RecordedAnswer?
    ) async throws -> WriteResult {
        try await writeBatch(
            [(write, idempotency)], account: account, writer: writer, quota: quota, now: now, record: record)[0]
    }

    /// The whole batch in one transaction under one lock of the account's row: one commit for
    /// all of it, each write inside with exactly the single route's rules.
    public func writeBatch(
        _ writes: [(write: NoteWrite, idempotency: IdempotencyKey)], account: AccountID,
        writer: SessionID?, quota: NoteQuota, now: Date,
        record: @escaping @Sendable (NoteWriteOutcome) -> RecordedAnswer?
    ) async throws -> [WriteResult] {
        let items = writes.map { WriteItem(write: $0.write, idempotency: $0.idempotency) }
        // The pool runs the transaction on another thread and is awaited before this returns,
        // so `record` never outlives the call.
        return try await withoutActuallyEscaping(record) { record in
            try await transaction { db in
                try Self.lockForWriting(account, db: db)
                let results = try items.map { item in
                    try Self.write(
                        item.write, account: account, writer: writer, idempotency: item.idempotency,
                        quota: quota, now: now, record: record, db: db)
                }
                let changed = results.contains { result in
                    if case .applied(let outcome) = result { outcome.changedFeed } else { false }
                }
                if changed { try self.announce(.notes, [account], db: db) }
                return results
            }
        }
    }

    /// Takes the account row's lock for the rest of the transaction: the account's writers run
    /// one at a time from here to their commit, so each takes its feed number after the last
    /// one's commit.
    static func lockForWriting(_ account: AccountID, db: PostgresConnection) throws {
        try db.query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", account.rawValue)
    }

    private static func write(
        _ write: NoteWrite, account: AccountID, writer: SessionID?, idempotency: IdempotencyKey,
        quota: NoteQuota, now: Date, record: (NoteWriteOutcome) -> RecordedAnswer?, db: PostgresConnection
    ) throws -> WriteResult {
        let seen = try db.historyRows(
            """
            SELECT fingerprint, \(RecordedAnswer.storedColumns) FROM idempotency_records
            WHERE account_id = $1 AND key = $2
            """, [.int(account.rawValue), .text(idempotency.key)]
        ) { row in (try row.textAt(0), try RecordedAnswer(row: row, at: 1)) }.first
        if let (fingerprint, answer) = seen {
            return fingerprint == idempotency.fingerprint ? .replayed(answer) : .keyReused
        }
        let outcome = try apply(write, account: account, writer: writer, quota: quota, now: now, db: db)
        if let answer = record(outcome) {
            try db.historyRun(
                """
                INSERT INTO idempotency_records
                    (account_id, key, fingerprint, created_at, \(RecordedAnswer.storedColumns))
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                """,
                [
                    .int(account.rawValue), .text(idempotency.key), .text(idempotency.fingerprint),
                    .int(now.storedMilliseconds),
                ] + answer.storedValues)
        }
        return .applied(outcome)
    }

    /// Decides `write` against the note's current row and stores the result, inside the
    /// caller's transaction (see `SQLiteServerStorage.apply` for why each rule is there).
    private static func apply(
        _ write: NoteWrite, account: AccountID, writer: SessionID?, quota: NoteQuota, now: Date,
        db: PostgresConnection
    ) throws -> NoteWriteOutcome {
        switch write {
        case .put(let noteID, let payload, let base):
            let previous = try feedPosition(account: account, db: db)
            guard let current = try note(noteID, account: account, db: db) else {
                let purged =
                    try db.queryFirst(
                        "SELECT version FROM purged_versions WHERE account_id = $1 AND note_id = $2",
                        account.rawValue, noteID
                    ) { try $0.int(0) } ?? 0
                if purged > 0, base?.number != purged {
                    // Maybe a resend whose idempotency record expired with the tombstone: the
                    // device meets the delete instead (10-device seed 739).
                    return .conflict(
                        StoredNote(
                            id: noteID, version: purged, updatedAt: now, deleted: true, payload: nil,
                            seq: try currentSeq(db)))
                }
                if let limit = try quotaPassed(quota, account: account, replacing: nil, with: payload, db: db) {
                    return .quotaExceeded(limit)
                }
                let version = purged + 1
                let position = try nextSeq(db, now: now)
                try db.query(
                    """
                    INSERT INTO notes
                        (account_id, note_id, version, deleted, payload, updated_at, seq, written_by, mark)
                    VALUES ($1, $2, $3, false, $4, $5, $6, $7, $8)
                    """, account.rawValue, noteID, version, payload, now.storedMilliseconds,
                    position.seq, writer?.rawValue, position.mark ?? 0)
                if purged > 0 {
                    try db.query(
                        "DELETE FROM purged_versions WHERE account_id = $1 AND note_id = $2",
                        account.rawValue, noteID)
                }
                return .saved(version: version, position: position, previous: previous)
            }
            guard let base, base.names(current) else {
                let known = try base.flatMap { try NoteMarkQueries.knows($0, of: current, account: account, db: db) }
                return .conflict(current, baseKnown: known)
            }
            if let limit = try quotaPassed(quota, account: account, replacing: current, with: payload, db: db) {
                return .quotaExceeded(limit)
            }
            // Also revives a tombstone: an edit beats a delete.
            let position = try update(
                current, account: account, deleted: false, payload: payload, writer: writer, now: now, db: db)
            return .saved(version: current.version + 1, position: position, previous: previous)

        case .delete(let noteID, let base):
            guard let current = try note(noteID, account: account, db: db) else { return .notFound }
            if current.deleted { return .alreadyDeleted }
            guard base.names(current) else {
                return .conflict(
                    current, baseKnown: try NoteMarkQueries.knows(base, of: current, account: account, db: db))
            }
            try update(current, account: account, deleted: true, payload: nil, writer: writer, now: now, db: db)
            return .deleted
        }
    }

    /// Stores the note's next state over `current` as the next change of the feed; returns its
    /// position.
    @discardableResult
    private static func update(
        _ current: StoredNote, account: AccountID, deleted: Bool, payload: String?, writer: SessionID?,
        now: Date, db: PostgresConnection
    ) throws -> FeedPosition {
        let noteID = current.id
        let version = current.version + 1
        let position = try nextSeq(db, now: now)
        try NoteHistoryQueries.archiveCurrent(noteID, account: account, now: now, db: db)
        try NoteMarkQueries.keepMark(of: current, account: account, db: db)
        try db.query(
            """
            UPDATE notes SET version = $1, deleted = $2, payload = $3, updated_at = $4, seq = $5,
                written_by = $6, mark = $7
            WHERE account_id = $8 AND note_id = $9
            """, version, deleted, payload, now.storedMilliseconds, position.seq,
            writer?.rawValue, position.mark ?? 0, account.rawValue, noteID)
        return position
    }

    /// The limit of `quota` that putting `payload` over `current` (nil or a tombstone: a new live
    /// note) would pass, from the account's counters (kept by the `notes_usage` trigger), read
    /// inside the caller's transaction after the account row's lock.
    private static func quotaPassed(
        _ quota: NoteQuota, account: AccountID, replacing current: StoredNote?, with payload: String,
        db: PostgresConnection
    ) throws -> NoteQuota.Limit? {
        guard !quota.isUnlimited else { return nil }
        let (notes, bytes) =
            try db.queryFirst(
                """
                SELECT live_notes, live_bytes FROM accounts WHERE id = $1
                """, account.rawValue
            ) { (try $0.int(0), try $0.int(1)) } ?? (0, 0)
        return quota.limitPassed(notes: notes, bytes: bytes, replacing: current, with: payload)
    }

    static func note(_ noteID: String, account: AccountID, db: PostgresConnection) throws -> StoredNote? {
        try db.queryFirst(
            "SELECT \(noteColumns) FROM notes WHERE account_id = $1 AND note_id = $2",
            account.rawValue, noteID, map: storedNote)
    }

    /// Takes the next number of the server-wide sequence inside the caller's transaction (after
    /// ``lockForWriting(_:db:)``) and stores a fresh random mark with it; returns both.
    ///
    /// `ON CONFLICT … DO UPDATE`: a number is handed out once, so a stored mark for it can only
    /// be left over from a history a restore replaced; the number is this write's now.
    static func nextSeq(_ db: PostgresConnection, now: Date) throws -> FeedPosition {
        guard let seq = try db.queryFirst("SELECT nextval('feed_seq')", map: { try $0.int64(0) }) else {
            throw PostgresError.decoding("nextval returned no row")
        }
        let position = FeedPosition(seq: seq, mark: FeedPosition.newMark())
        try db.query(
            """
            INSERT INTO seq_marks (seq, mark, created_at) VALUES ($1, $2, $3)
            ON CONFLICT (seq) DO UPDATE SET mark = excluded.mark, created_at = excluded.created_at
            """, position.seq, position.mark, now.storedMilliseconds)
        return position
    }
}

/// One write of a batch, as the transaction's closure carries it.
private struct WriteItem: Sendable {
    var write: NoteWrite
    var idempotency: IdempotencyKey
}
