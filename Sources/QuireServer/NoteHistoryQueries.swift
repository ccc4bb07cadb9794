import Foundation

/// The history's rules and statements, written once for both stores (see ``HistoryDatabase``).
/// Every function runs inside the caller's transaction.
enum NoteHistoryQueries {
    // MARK: - Keeping

    /// Keeps the note's current live state as an earlier version before a write replaces it: the
    /// one rule that makes every text the server accepted findable again. The row keeps the
    /// state's mark too (see ``NoteMarkQueries``). A tombstone (no payload) keeps nothing; its
    /// note's last text was kept when it was deleted. A version number stored before takes the
    /// newer text and mark: only a store whose `notes` went back behind its own history (never
    /// in one transactional store) holds one.
    static func archiveCurrent(_ noteID: String, account: AccountID, now: Date, db: some HistoryDatabase) throws {
        try db.historyRun(
            """
            INSERT INTO note_versions
                (account_id, note_id, version, payload, saved_at, replaced_at, written_by, mark)
            SELECT account_id, note_id, version, payload, updated_at, CAST($3 AS BIGINT), written_by, mark
            FROM notes
            WHERE account_id = $1 AND note_id = $2 AND deleted = FALSE AND payload IS NOT NULL
            ON CONFLICT (account_id, note_id, version) DO UPDATE SET payload = excluded.payload,
                saved_at = excluded.saved_at, replaced_at = excluded.replaced_at,
                written_by = excluded.written_by, mark = excluded.mark
            """, [.int(account.rawValue), .text(noteID), .int(now.storedMilliseconds)])
    }

    // MARK: - Reading

    static func history(
        account: AccountID, noteID: String, before: Int?, limit: Int, db: some HistoryDatabase
    ) throws -> NoteHistory? {
        let key: [HistoryValue] = [.int(account.rawValue), .text(noteID)]
        let current = try db.historyRows(
            """
            SELECT note_id, version, updated_at, deleted, payload, seq, written_by, mark FROM notes
            WHERE account_id = $1 AND note_id = $2
            """, key, map: storedNote
        ).first
        guard let current else { return nil }
        var versions: [StoredVersion] = []
        if !current.deleted, let payload = current.payload, before.map({ current.version < $0 }) ?? true {
            versions.append(
                StoredVersion(
                    version: current.version, savedAt: current.updatedAt, payload: payload, mark: current.mark,
                    current: true))
        }
        let below = min(before ?? current.version, current.version)
        versions += try db.historyRows(
            """
            SELECT version, saved_at, payload, mark FROM note_versions
            WHERE account_id = $1 AND note_id = $2 AND version < $3
            ORDER BY version DESC LIMIT $4
            """, key + [.int(Int64(below)), .int(Int64(limit + 1))], map: storedVersion)
        let hasMore = versions.count > limit
        return NoteHistory(current: current, versions: Array(versions.prefix(limit)), hasMore: hasMore)
    }

    static func trash(account: AccountID, limit: Int, db: some HistoryDatabase) throws -> (
        notes: [TrashedNote], hasMore: Bool
    ) {
        let notes = try db.historyRows(
            """
            SELECT n.note_id, n.version, n.updated_at, n.deleted, n.payload, n.seq, n.written_by, n.mark,
                v.version, v.saved_at, v.payload, v.mark
            FROM notes n JOIN note_versions v ON v.account_id = n.account_id AND v.note_id = n.note_id
            WHERE n.account_id = $1 AND n.deleted = TRUE AND v.version = (
                SELECT MAX(w.version) FROM note_versions w
                WHERE w.account_id = n.account_id AND w.note_id = n.note_id)
            ORDER BY n.updated_at DESC, n.note_id LIMIT $2
            """, [.int(account.rawValue), .int(Int64(limit + 1))]
        ) { row in
            TrashedNote(
                tombstone: try storedNote(row),
                last: StoredVersion(
                    version: Int(try row.int64At(8)), savedAt: Date(storedMilliseconds: try row.int64At(9)),
                    payload: try row.textAt(10), mark: try row.int64At(11)))
        }
        return (Array(notes.prefix(limit)), notes.count > limit)
    }

    // MARK: - Pruning

    static func prune(
        after: HistoryPruneCursor?, retention: HistoryRetention, now: Date, batchSize: Int,
        db: some HistoryDatabase
    ) throws -> (pruned: Int, next: HistoryPruneCursor?) {
        let start = after ?? HistoryPruneCursor(account: Int64.min, noteID: "")
        let keys = try db.historyRows(
            """
            SELECT DISTINCT account_id, note_id FROM note_versions
            WHERE (account_id, note_id) > ($1, $2)
            ORDER BY account_id, note_id LIMIT $3
            """, [.int(start.account), .text(start.noteID), .int(Int64(batchSize))]
        ) { HistoryPruneCursor(account: try $0.int64At(0), noteID: try $0.textAt(1)) }
        var pruned = 0
        // Each account is capped once the pass is past its last note, on what the pass left of
        // it (before that, versions the pass is about to thin out would push out older ones).
        var inAccount = after?.account
        for key in keys {
            if let account = inAccount, account != key.account {
                pruned += try cap(account, bytes: retention.accountBytes, most: batchSize * 10, db: db)
            }
            inAccount = key.account
            let values: [HistoryValue] = [.int(key.account), .text(key.noteID)]
            let deleted =
                try db.historyRows(
                    "SELECT deleted FROM notes WHERE account_id = $1 AND note_id = $2", values
                ) { try $0.boolAt(0) }.first ?? true
            let versions = try db.historyRows(
                "SELECT version, saved_at FROM note_versions WHERE account_id = $1 AND note_id = $2", values
            ) {
                HistoryRetention.Version(
                    number: Int(try $0.int64At(0)), savedAt: Date(storedMilliseconds: try $0.int64At(1)))
            }
            for number in retention.versionsToPrune(versions, now: now, noteDeleted: deleted) {
                pruned += try forget(values + [.int(Int64(number))], db: db)
            }
        }
        let finished = keys.count < batchSize
        if finished, let account = inAccount {
            pruned += try cap(account, bytes: retention.accountBytes, most: batchSize * 10, db: db)
        }
        return (pruned, finished ? nil : keys.last)
    }

    /// Deletes the account's oldest versions, at most `most`, until its versions hold no more
    /// than `bytes` payload bytes. Returns how many went.
    private static func cap(_ account: Int64, bytes: Int, most: Int, db: some HistoryDatabase) throws -> Int {
        let total =
            try db.historyRows(
                "SELECT COALESCE(SUM(LENGTH(payload)), 0) FROM note_versions WHERE account_id = $1",
                [.int(account)]
            ) { try $0.int64At(0) }.first ?? 0
        var excess = total - Int64(bytes)
        guard excess > 0 else { return 0 }
        let oldest = try db.historyRows(
            """
            SELECT note_id, version, LENGTH(payload) FROM note_versions WHERE account_id = $1
            ORDER BY saved_at, note_id, version LIMIT $2
            """, [.int(account), .int(Int64(most))]
        ) { (try $0.textAt(0), try $0.int64At(1), try $0.int64At(2)) }
        var pruned = 0
        for (noteID, version, size) in oldest where excess > 0 {
            pruned += try forget([.int(account), .text(noteID), .int(version)], db: db)
            excess -= size
        }
        return pruned
    }

    /// Deletes one earlier version (`key`: account, note id, version), keeping its mark (see
    /// ``NoteMarkQueries``). Returns how many rows went.
    private static func forget(_ key: [HistoryValue], db: some HistoryDatabase) throws -> Int {
        let version = "account_id = $1 AND note_id = $2 AND version = $3"
        try NoteMarkQueries.keepMarks(ofVersionsWhere: version, key, db: db)
        return try db.historyRun("DELETE FROM note_versions WHERE \(version)", key)
    }

    // MARK: - Rows

    private static func storedNote(_ row: any HistoryRow) throws -> StoredNote {
        StoredNote(
            id: try row.textAt(0), version: Int(try row.int64At(1)),
            updatedAt: Date(storedMilliseconds: try row.int64At(2)), deleted: try row.boolAt(3),
            payload: try row.optionalTextAt(4), seq: try row.int64At(5),
            writer: try row.optionalInt64At(6).map { SessionID($0) }, mark: try row.int64At(7))
    }

    private static func storedVersion(_ row: any HistoryRow) throws -> StoredVersion {
        StoredVersion(
            version: Int(try row.int64At(0)), savedAt: Date(storedMilliseconds: try row.int64At(1)),
            payload: try row.textAt(2), mark: try row.int64At(3))
    }
}
