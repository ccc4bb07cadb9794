import Foundation
import QuireDomain
import QuireSQLite

// MARK: - SyncRecords: the engine's half

extension NotesDatabase {
    // MARK: Pushing

    /// The change to send next, frozen; nil when nothing can be sent.
    ///
    /// A change already in flight is handed out again unchanged (a resend after a lost reply), so
    /// one change at a time travels and each note's changes go in the order they were made.
    /// Otherwise the oldest change that is not refused is frozen in one transaction: marked in
    /// flight, with its note's current version as the base (nil if the server never confirmed it).
    public func nextChange() throws -> SentChange? {
        try bookkeepingWrite { _ in
            if let inFlight = try connection.queryFirst(
                Self.changeSelect + " WHERE in_flight = 1 ORDER BY seq LIMIT 1",
                map: Self.storedChange)
            {
                return Self.sentChange(inFlight)
            }
            guard
                var next = try connection.queryFirst(
                    Self.changeSelect + " WHERE refused = 0 ORDER BY seq LIMIT 1",
                    map: Self.storedChange)
            else { return nil }
            let version = try storedNote(next.noteID)?.version ?? 0
            next.baseVersion = version > 0 ? version : nil
            next.inFlight = true
            try connection.run(
                "UPDATE pending_changes SET in_flight = 1, base_version = ? WHERE seq = ?",
                next.baseVersion, next.seq)
            return Self.sentChange(next)
        }
    }

    /// Up to `limit` changes to send together, frozen in one transaction; empty when nothing can
    /// be sent.
    ///
    /// Changes already in flight (a batch whose answer was lost) are handed out again, unchanged
    /// and all together. Otherwise the oldest changes that are not refused, one per note (a note's
    /// changes still go one at a time, in order), are frozen as in ``nextChange()``.
    public func nextChanges(limit: Int) async throws -> [SentChange] {
        try bookkeepingWrite { _ in
            let inFlight = try connection.query(
                Self.changeSelect + " WHERE in_flight = 1 ORDER BY seq", map: Self.storedChange)
            if !inFlight.isEmpty { return inFlight.map(Self.sentChange) }
            let candidates = try connection.query(
                Self.changeSelect
                    + """
                     WHERE refused = 0 AND seq IN (
                        SELECT MIN(seq) FROM pending_changes WHERE refused = 0 GROUP BY note_id)
                    ORDER BY seq LIMIT ?
                    """, bindings: [max(limit, 1)], map: Self.storedChange)
            return try candidates.map { candidate in
                var next = candidate
                let version = try storedNote(next.noteID)?.version ?? 0
                next.baseVersion = version > 0 ? version : nil
                next.inFlight = true
                try connection.run(
                    "UPDATE pending_changes SET in_flight = 1, base_version = ? WHERE seq = ?",
                    next.baseVersion, next.seq)
                return Self.sentChange(next)
            }
        }
    }

    /// Stores the sealed payload of the change in flight, so every resend carries the same bytes.
    /// Keeps a payload already stored; throws `.unknownChange` when the change is gone.
    public func freezePayload(_ change: ChangeID, payload: String) throws {
        try bookkeepingWrite { _ in
            _ = try requireChange(change)
            try connection.run(
                "UPDATE pending_changes SET payload = ? WHERE change_id = ? AND payload IS NULL",
                payload, change.description)
        }
    }

    /// The server accepted the change: drops it and, when the server gave a version, records it
    /// as the note's; for a put, the text that was sent (not the note's current text, which may
    /// have moved on) becomes the note's base. Throws `.unknownChange` for an id not pending.
    public func complete(_ change: ChangeID, version: Int?) throws {
        try bookkeepingWrite { touched in
            let stored = try requireChange(change)
            try connection.run("DELETE FROM pending_changes WHERE seq = ?", stored.seq)
            touched.insert(.changes)
            guard let version else { return }
            try connection.run(
                """
                UPDATE notes SET version = ?, base_title = ?, base_body = ?, confirmed = 1
                WHERE id = ?
                """, version, stored.content?.title, stored.content?.body,
                stored.noteID.description)
            touched.insert(.notes)
        }
    }

    /// The server will never take the change: it stays queued with its text but is no longer sent,
    /// and its note shows as refused until the next save or delete of it. Throws `.unknownChange`.
    public func markRefused(_ change: ChangeID, reason: String) throws {
        try bookkeepingWrite { touched in
            let stored = try requireChange(change)
            try connection.run(
                """
                UPDATE pending_changes SET in_flight = 0, refused = 1, refused_reason = ?
                WHERE seq = ?
                """, reason, stored.seq)
            touched.formUnion([.notes, .changes])
        }
    }

    // MARK: Pulling

    /// Applies a page of the feed and stores its cursor in one transaction.
    ///
    /// Refuses the whole page (`.wrongAccount`, nothing written) when the database is bound to
    /// another account. For each note: one with a pending change is skipped (its change will meet
    /// the server's copy as a conflict); a copy no newer than the local one only confirms the note;
    /// a tombstone of a note never seen here is ignored; anything else becomes the note, its text
    /// the new base.
    public func apply(_ changes: [RemoteNote], cursor: Cursor, account: AccountID) throws {
        try bookkeepingWrite { touched in
            if let bound = try readMeta(.account), bound != account.rawValue {
                throw NotesDatabaseError(
                    .wrongAccount, "changes for account \(account) in a database bound to \(bound)")
            }
            for remote in changes {
                if try applyRemote(remote) { touched.insert(.notes) }
            }
            try writeMeta(.cursor, cursor.rawValue)
        }
    }

    /// One remote note, inside `apply`'s transaction. Returns whether a live row changed.
    private func applyRemote(_ remote: RemoteNote) throws -> Bool {
        if try hasPendingChange(remote.id) { return false }
        let local = try storedNote(remote.id)
        if let local, local.version >= remote.version {
            if !remote.isDeleted {
                // A full resync lists it again: the server still has it.
                try connection.run(
                    "UPDATE notes SET confirmed = 1 WHERE id = ?", remote.id.description)
            }
            return false
        }
        guard let content = remote.content else {
            guard local != nil else { return false }
            // The text goes too: someone deleted it after seeing it; nothing will show it again.
            try connection.run(
                """
                UPDATE notes SET deleted = 1, version = ?, title = '', body = '',
                    base_title = NULL, base_body = NULL, confirmed = 1, revision = revision + 1
                WHERE id = ?
                """, remote.version, remote.id.description)
            return true
        }
        try connection.run(
            """
            INSERT INTO notes (id, title, body, updated_at, conflict_of, version, deleted,
                base_title, base_body, revision, confirmed)
            VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, 0, 1)
            ON CONFLICT (id) DO UPDATE SET title = excluded.title, body = excluded.body,
                updated_at = excluded.updated_at, conflict_of = excluded.conflict_of,
                version = excluded.version, deleted = 0, base_title = excluded.base_title,
                base_body = excluded.base_body, revision = revision + 1, confirmed = 1
            """, remote.id.description, content.title, content.body,
            remote.updatedAt.timeIntervalSinceReferenceDate, content.conflictOf?.description,
            remote.version, content.title, content.body)
        return true
    }

    /// The cursor of the last applied page; nil before the first one or after a reset.
    public func cursor() throws -> Cursor? {
        try readMeta(.cursor).map(Cursor.init)
    }

    // MARK: Account and full resync

    /// Binds the database to `account` (nil: unbound). A different account than the bound one
    /// also forgets the cursor: the next pull starts from the beginning.
    public func bindAccount(_ account: AccountID?) throws {
        try bookkeepingWrite { _ in
            guard try readMeta(.account) != account?.rawValue else { return }
            if let account {
                try writeMeta(.account, account.rawValue)
            } else {
                try connection.run("DELETE FROM sync_meta WHERE key = ?", MetaKey.account.rawValue)
            }
            try connection.run("DELETE FROM sync_meta WHERE key = ?", MetaKey.cursor.rawValue)
        }
    }

    /// The account this database syncs with; nil before the first sign-in.
    public func boundAccount() throws -> AccountID? {
        try readMeta(.account).map(AccountID.init)
    }

    /// Forgets the cursor, marks every note unconfirmed and records that a resync is in progress;
    /// the pages of the resync confirm the ones the server still has.
    ///
    /// The mark is stored, so a resync interrupted by a failure or a crash is still finished by
    /// the next pull that completes, even though that pull starts from a page's cursor or from none.
    public func beginFullResync() throws {
        try bookkeepingWrite { _ in
            try connection.run("DELETE FROM sync_meta WHERE key = ?", MetaKey.cursor.rawValue)
            try connection.run("UPDATE notes SET confirmed = 0")
            try writeMeta(.resyncing, "1")
        }
    }

    /// If a full resync is in progress, ends it: removes the notes the server once confirmed, the
    /// resync did not list, and that have no pending change (the server no longer has them).
    /// Notes never sent and pending edits stay. Does nothing when no resync is in progress.
    public func finishFullResync() throws {
        try bookkeepingWrite { touched in
            guard try readMeta(.resyncing) != nil else { return }
            try connection.run("DELETE FROM sync_meta WHERE key = ?", MetaKey.resyncing.rawValue)
            let removed = try connection.run(
                """
                DELETE FROM notes
                WHERE confirmed = 0 AND version > 0
                  AND NOT EXISTS (SELECT 1 FROM pending_changes p WHERE p.note_id = notes.id)
                """)
            if removed > 0 { touched.insert(.notes) }
        }
    }

    // MARK: Run record

    /// The engine's last stored record of its runs.
    public func runRecord() throws -> SyncRunRecord {
        try readRunRecord()
    }

    /// Stores the engine's record of its runs in the status row and publishes the status.
    public func recordRun(_ record: SyncRunRecord) throws {
        try bookkeepingWrite { touched in
            try connection.run(
                """
                UPDATE sync_status SET last_synced_at = ?, is_syncing = ?, last_run_failed = ?,
                    last_error = ?, undecryptable_count = ?, last_failure_kind = ?, metrics = ?
                WHERE id = 1
                """, record.lastSyncedAt?.timeIntervalSinceReferenceDate, record.isSyncing,
                record.lastRunFailed, record.lastError, record.undecryptableCount,
                record.lastFailureKind?.rawValue, record.metrics.json)
            touched.insert(.status)
        }
    }

    // MARK: - Helpers

    enum MetaKey: String {
        case cursor
        case account
        /// Present from `beginFullResync` until `finishFullResync`.
        case resyncing
    }

    func readMeta(_ key: MetaKey) throws -> String? {
        try connection.queryFirst("SELECT value FROM sync_meta WHERE key = ?", key.rawValue) {
            $0.text(0)
        }
    }

    func writeMeta(_ key: MetaKey, _ value: String) throws {
        try connection.run(
            """
            INSERT INTO sync_meta (key, value) VALUES (?, ?)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """, key.rawValue, value)
    }

    /// The pending change, or `.unknownChange` (completed or dropped already).
    func requireChange(_ id: ChangeID) throws -> StoredChange {
        guard let stored = try storedChange(id) else {
            throw NotesDatabaseError(.unknownChange, "no pending change \(id)")
        }
        return stored
    }

    static func sentChange(_ stored: StoredChange) -> SentChange {
        SentChange(
            id: stored.changeID, noteID: stored.noteID,
            operation: stored.content.map(SentChange.Operation.put) ?? .delete,
            baseVersion: stored.baseVersion, createdAt: stored.createdAt, payload: stored.payload)
    }
}
