import Foundation
import QuireDomain
import QuireSQLite

// MARK: - SyncRecords: the engine's half

extension NotesDatabase {
    // MARK: Pushing

    /// The change to send next, frozen; nil when nothing can be sent. See ``nextChanges(limit:skipping:)``.
    public func nextChange() throws -> SentChange? {
        try nextChanges(limit: 1, skipping: []).first
    }

    /// Up to `limit` changes to send together, frozen in one transaction; empty when nothing can
    /// be sent.
    ///
    /// Changes already in flight (a send whose answer was lost) are handed out again, unchanged
    /// and all together. Otherwise the oldest changes that are not refused, one per note (a note's
    /// changes go one at a time, in order), are frozen: marked in flight, with the note's current
    /// version as the base (nil if the server never confirmed it). A change in `skipping` or still
    /// backing off (``ChangeRetry``) is left out, and so is every later change of its note.
    public func nextChanges(limit: Int, skipping: Set<ChangeID> = []) throws -> [SentChange] {
        try bookkeepingWrite { _ in
            let now = now().timeIntervalSinceReferenceDate
            let skipped = skipping.map { "'\($0.description)'" }.joined(separator: ",")
            let ready =
                "(retry_at IS NULL OR retry_at <= ?)"
                + (skipped.isEmpty ? "" : " AND change_id NOT IN (\(skipped))")
            let inFlight = try connection.query(
                Self.changeSelect + " WHERE in_flight = 1 AND \(ready) ORDER BY seq",
                bindings: [now], map: Self.storedChange)
            if !inFlight.isEmpty { return inFlight.map(Self.sentChange) }
            let candidates = try connection.query(
                Self.changeSelect
                    + """
                     WHERE in_flight = 0 AND refused = 0 AND \(ready) AND seq IN (
                        SELECT MIN(seq) FROM pending_changes WHERE refused = 0 GROUP BY note_id)
                    ORDER BY seq LIMIT ?
                    """, bindings: [now, max(limit, 1)], map: Self.storedChange)
            return try candidates.map { candidate in
                var next = candidate
                let note = try storedNote(next.noteID)
                let version = note?.version ?? 0
                next.baseVersion = version > 0 ? version : nil
                next.baseTag = version > 0 ? note?.versionTag : nil
                next.inFlight = true
                try connection.run(
                    "UPDATE pending_changes SET in_flight = 1, base_version = ?, base_tag = ? WHERE seq = ?",
                    next.baseVersion, next.baseTag, next.seq)
                return Self.sentChange(next)
            }
        }
    }

    /// Stores the sealed payload of the change in flight unless one is stored, and returns the
    /// stored one, so every send carries the same bytes. Throws `.unknownChange` when the change
    /// is gone.
    @discardableResult
    public func freezePayload(_ change: ChangeID, payload: String) throws -> String {
        try bookkeepingWrite { _ in
            _ = try requireChange(change)
            try connection.run(
                "UPDATE pending_changes SET payload = ? WHERE change_id = ? AND payload IS NULL",
                payload, change.description)
            return try requireChange(change).payload ?? payload
        }
    }

    /// The server accepted the change: drops it and, when the server gave a version, records it
    /// as the note's; for a put, the text that was sent (not the note's current text, which may
    /// have moved on) becomes the note's base. A newer server copy a pull skipped meanwhile (see
    /// `skipped_remote`) is applied now if the answer was `replayed` and nothing else is pending
    /// for the note: a resend's answer names the version of its first send, and another device
    /// wrote after it. A fresh write's answer names the server's current version: a skipped copy
    /// newer than that comes from a history the server forgot, and goes.
    /// `position`, the write's place in the server's feed, joins the positions a pull must check
    /// (``ackedPositions()``). Throws `.unknownChange` for an id not pending.
    public func complete(
        _ change: ChangeID, version: Int?, tag: String? = nil, position: Cursor? = nil, replayed: Bool = true
    ) throws {
        try bookkeepingWrite { touched in
            let stored = try requireChange(change)
            try connection.run("DELETE FROM pending_changes WHERE seq = ?", stored.seq)
            touched.insert(.changes)
            if let position {
                let unverified = try readMeta(.unverifiedPositions).map { $0 + "\n" } ?? ""
                try writeMeta(.unverifiedPositions, unverified + position.rawValue)
            }
            if let version {
                try connection.run(
                    """
                    UPDATE notes SET version = ?, version_tag = ?, base_title = ?, base_body = ?,
                        confirmed = 1
                    WHERE id = ?
                    """, version, tag, stored.content?.title, stored.content?.body,
                    stored.noteID.description)
                touched.insert(.notes)
            }
            guard let skipped = try takeSkipped(stored.noteID), replayed, try !hasPendingChange(stored.noteID),
                skipped.version > (try storedNote(stored.noteID)?.version ?? 0)
            else { return }
            if try applyRemote(skipped, ownDevice: try ownDeviceID()) { touched.insert(.notes) }
        }
    }

    /// A remote copy kept while its note has a pending change.
    private struct SkippedRemote: Codable {
        var version: Int
        var updatedAt: Date
        var content: NoteContent?
        var versionTag: String?
    }

    private func keepSkipped(_ remote: RemoteNote) throws {
        let encoded = try JSONEncoder().encode(
            SkippedRemote(
                version: remote.version, updatedAt: remote.updatedAt, content: remote.content,
                versionTag: remote.versionTag))
        try connection.run(
            "UPDATE notes SET skipped_remote = ? WHERE id = ?", String(decoding: encoded, as: UTF8.self),
            remote.id.description)
    }

    /// The note's kept remote copy, removed from the row.
    private func takeSkipped(_ id: NoteID) throws -> RemoteNote? {
        guard
            let text = try connection.queryFirst(
                "SELECT skipped_remote FROM notes WHERE id = ?", id.description, map: { $0.optionalText(0) }) ?? nil
        else { return nil }
        try connection.run("UPDATE notes SET skipped_remote = NULL WHERE id = ?", id.description)
        let skipped = try JSONDecoder().decode(SkippedRemote.self, from: Data(text.utf8))
        return RemoteNote(
            id: id, version: skipped.version, updatedAt: skipped.updatedAt, content: skipped.content,
            versionTag: skipped.versionTag)
    }

    /// The server will never take the change. A later change of the note queued behind it
    /// supersedes it (dropped: it held the device's own earlier text); otherwise it stays queued
    /// with its text, is no longer sent, and the note shows `reason` until the next save or delete
    /// of it. Throws `.unknownChange`.
    public func markRefused(_ change: ChangeID, reason: String) throws {
        try bookkeepingWrite { touched in
            let stored = try requireChange(change)
            touched.formUnion([.notes, .changes])
            let superseded =
                try connection.queryFirst(
                    "SELECT 1 FROM pending_changes WHERE note_id = ? AND seq > ? LIMIT 1",
                    stored.noteID.description, stored.seq
                ) { _ in true } ?? false
            if superseded {
                try connection.run("DELETE FROM pending_changes WHERE seq = ?", stored.seq)
                return
            }
            if stored.kind == .delete, let note = try storedNote(stored.noteID) {
                // A delete the server will not take: the note comes back rather than hide text
                // nobody can see; an edit folded into the delete is queued again as a put. What
                // the server holds for it is unknown here (pulls skipped the note while the delete
                // was pending, and an earlier send may have landed): the next pull lists every
                // note, which settles it either way.
                try connection.run("DELETE FROM pending_changes WHERE seq = ?", stored.seq)
                try connection.run("DELETE FROM sync_meta WHERE key = ?", MetaKey.cursor.rawValue)
                try connection.run("UPDATE notes SET confirmed = 0")
                let mark = try readMeta(.resyncing).flatMap(Self.resyncReason)
                try writeMeta(.resyncing, max(mark ?? .firstListing, .firstListing).rawValue)
                try connection.run(
                    "UPDATE notes SET deleted = 0, revision = revision + 1 WHERE id = ?",
                    note.id.description)
                if note.base != NoteText(title: note.title, body: note.body) {
                    try queue(
                        .put(NoteContent(title: note.title, body: note.body, conflictOf: note.conflictOf)),
                        for: note.id, foldingInto: nil, at: now().timeIntervalSinceReferenceDate)
                }
                return
            }
            try connection.run(
                """
                UPDATE pending_changes SET in_flight = 0, refused = 1, refused_reason = ?,
                    retry_at = NULL
                WHERE seq = ?
                """, reason, stored.seq)
        }
    }

    /// Counts a failed send of the change, keeps `error`, and holds the change back for
    /// ``ChangeRetry/delay(afterAttempts:)``. Returns the attempts so far; throws `.unknownChange`.
    @discardableResult
    public func recordFailedAttempt(_ change: ChangeID, error: String) throws -> Int {
        try bookkeepingWrite { touched in
            let stored = try requireChange(change)
            let attempts = stored.attempts + 1
            let retryAt = now().addingTimeInterval(ChangeRetry.delay(afterAttempts: attempts))
            try connection.run(
                "UPDATE pending_changes SET attempts = ?, retry_at = ?, last_error = ? WHERE seq = ?",
                attempts, retryAt.timeIntervalSinceReferenceDate, error, stored.seq)
            if attempts >= ChangeRetry.stuckAfterAttempts { touched.insert(.notes) }
            return attempts
        }
    }

    /// Gives the change a new id and forgets its sealed payload; text, base and place stay.
    /// Throws `.unknownChange`.
    public func reissue(_ change: ChangeID) throws -> ChangeID {
        try bookkeepingWrite { _ in
            let stored = try requireChange(change)
            let fresh = ChangeID()
            try connection.run(
                "UPDATE pending_changes SET change_id = ?, payload = NULL WHERE seq = ?",
                fresh.description, stored.seq)
            return fresh
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
            try checkAccount(account)
            try applyPage(changes, cursor: cursor, touched: &touched)
        }
    }

    /// Refuses a page for another account than the one bound to this database.
    func checkAccount(_ account: AccountID) throws {
        if let bound = try readMeta(.account), bound != account.rawValue {
            throw NotesDatabaseError(
                .wrongAccount, "changes for account \(account) in a database bound to \(bound)")
        }
    }

    /// The notes of a page and its cursor, inside the caller's transaction.
    func applyPage(_ changes: [RemoteNote], cursor: Cursor, touched: inout Touched) throws {
        try indexingSearchOnce { try applyEach(changes, cursor: cursor, touched: &touched) }
    }

    private func applyEach(_ changes: [RemoteNote], cursor: Cursor, touched: inout Touched) throws {
        var resync = try readMeta(.resyncing).flatMap(Self.resyncReason)
        let own = try ownDeviceID()
        for remote in changes {
            if resync != nil, try restoreRegressed(remote) {
                // A listing older than a version this device was given: the server lost
                // writes, whatever began the resync (a 410 can hide a restore: seed 1815).
                if resync != .serverForgot {
                    resync = .serverForgot
                    try writeMeta(.resyncing, FullResyncReason.serverForgot.rawValue)
                }
                touched.formUnion([.notes, .changes])
            } else if try applyRemote(
                remote, ownDevice: own, untrustedHistory: resync == .serverForgot)
            {
                touched.formUnion([.notes, .changes])
            }
        }
        try writeMeta(.cursor, cursor.rawValue)
    }

    /// One remote note, inside `apply`'s transaction. Returns whether a live row changed.
    ///
    ///
    /// `untrustedHistory`: in a resync after the server lost writes, a newer server copy of a
    /// note whose confirmed version this device holds under another tag may not descend from
    /// this device's text (the restore forgot it), so that text is kept as a copy first.
    private func applyRemote(
        _ remote: RemoteNote, ownDevice: String, untrustedHistory: Bool = false
    ) throws -> Bool {
        var local = try storedNote(remote.id)
        if let pending = try pendingChanges(of: remote.id).first {
            guard pending.refused, let note = local, remote.version > note.version,
                try yieldRefused(pending, of: note, to: remote)
            else {
                // Its change will usually meet this copy as a 409; but a resend answered from the
                // server's record of its first send says only "applied at an older version", and
                // the pull that moved past this copy must not have been its only chance.
                if remote.version > (local?.version ?? 0) { try keepSkipped(remote) }
                return false
            }
            local = try storedNote(remote.id)
        }
        if untrustedHistory, let local, local.version < remote.version, local.versionTag != nil,
            remote.versionTag != nil
        {
            try keepAsCopy(local, against: remote)
        }
        if let local, local.version == remote.version, remote.isAnotherText(than: local.versionTag) {
            // The same version number with another tag: the server was restored from a backup and
            // this number now names another text. Neither is known to be the other's ancestor, so
            // neither may replace the other unseen: this device's text is kept as a conflict copy.
            try keepAsCopy(local, against: remote)
        } else if let local, local.version >= remote.version {
            if !remote.isDeleted {
                // A full resync lists it again: the server still has it.
                try connection.run(
                    "UPDATE notes SET confirmed = 1 WHERE id = ?", remote.id.description)
            }
            return false
        }
        return try store(remote, replacing: local, ownDevice: ownDevice)
    }

    /// Makes the server's copy the note's text, version and base (a tombstone deletes a note this
    /// device has; one it never had is ignored). Returns whether a live row changed.
    func store(_ remote: RemoteNote, replacing local: StoredNote?, ownDevice: String) throws
        -> Bool
    {
        guard let content = remote.content else {
            guard local != nil else { return false }
            // The text goes too: someone deleted it after seeing it; nothing will show it again.
            try connection.run(
                """
                UPDATE notes SET deleted = 1, version = ?, version_tag = ?, title = '', body = '',
                    base_title = NULL, base_body = NULL, confirmed = 1, revision = revision + 1,
                    arrived = 1, skipped_remote = NULL, deleted_at = ?
                WHERE id = ?
                """, remote.version, remote.versionTag, remote.updatedAt.timeIntervalSinceReferenceDate,
                remote.id.description)
            return true
        }
        let typedOn = Self.typedOnColumns(content.typedOn, ownDevice: ownDevice)
        // The preview and, for a new row, the creation time are written with the row, so their
        // triggers have nothing to do (client migration 14).
        try connection.run(
            """
            INSERT INTO notes (id, title, body, updated_at, conflict_of, version, deleted,
                base_title, base_body, revision, confirmed, arrived, typed_on_id, typed_on_name,
                version_tag, preview, created_at)
            VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, 0, 1, 1, ?, ?, ?,
                substr(ltrim(?, ' ' || char(9) || char(10) || char(13)), 1, \(NoteSummary.previewLength)),
                ?4)
            ON CONFLICT (id) DO UPDATE SET title = excluded.title, body = excluded.body,
                preview = excluded.preview,
                updated_at = excluded.updated_at, conflict_of = excluded.conflict_of,
                version = excluded.version, version_tag = excluded.version_tag, deleted = 0,
                base_title = excluded.base_title,
                base_body = excluded.base_body, revision = revision + 1, confirmed = 1, arrived = 1,
                typed_on_id = excluded.typed_on_id, typed_on_name = excluded.typed_on_name,
                skipped_remote = NULL
            """, remote.id.description, content.title, content.body,
            remote.updatedAt.timeIntervalSinceReferenceDate, content.conflictOf?.description,
            remote.version, content.title, content.body, typedOn.id, typedOn.name,
            remote.versionTag, content.body)
        return true
    }

    /// A newer server copy of a note whose only change the server refused: the refused text must
    /// not hold back other devices' edits for good, nor be lost. A refused put whose text differs
    /// from the server's becomes a conflict copy linked to the note (queued like any new note); a
    /// refused delete yields (an edit beats a delete). Against a tombstone a refused put stays,
    /// and returns false: its next send meets the tombstone and is recreated.
    private func yieldRefused(
        _ change: StoredChange, of note: StoredNote, to remote: RemoteNote
    ) throws -> Bool {
        if let localContent = change.content {
            guard let server = remote.content else { return false }
            if localContent.title != server.title || localContent.body != server.body {
                let copy = NoteContent(
                    title: ConflictPolicy().copyTitle(for: localContent.title),
                    body: localContent.body, conflictOf: note.conflictOf ?? note.id)
                try insertCopy(copy, at: now().timeIntervalSinceReferenceDate)
            }
        }
        try connection.run("DELETE FROM pending_changes WHERE seq = ?", change.seq)
        return true
    }

    /// The cursor of the last applied page; nil before the first one or after a reset.
    public func cursor() throws -> Cursor? {
        try readMeta(.cursor).map(Cursor.init)
    }

    /// The feed positions of this device's acknowledged writes that the next pull must check:
    /// the newest one a pull found the server still has, and every one acknowledged since.
    public func ackedPositions() throws -> AckedPositions {
        AckedPositions(
            verified: try readMeta(.ackedPosition).map(Cursor.init),
            unverified: (try readMeta(.unverifiedPositions) ?? "").split(separator: "\n").map { Cursor(String($0)) })
    }

    /// A pull found the server holding every position ``ackedPositions()`` gave: the newest one
    /// is all later pulls need to check. `through`, the cursor a finished pull ended at (the
    /// account's latest change, after every write checked), takes its place: a later 410 can hide
    /// a restore from the cursor check, and a note a listing confirmed has no write position of
    /// its own (10-device seed 956).
    public func positionsVerified(through cursor: Cursor? = nil) throws {
        try bookkeepingWrite { _ in
            if let cursor {
                try writeMeta(.ackedPosition, cursor.rawValue)
                try connection.run("DELETE FROM sync_meta WHERE key = ?", MetaKey.unverifiedPositions.rawValue)
                return
            }
            guard let newest = try ackedPositions().unverified.last else { return }
            try writeMeta(.ackedPosition, newest.rawValue)
            try connection.run("DELETE FROM sync_meta WHERE key = ?", MetaKey.unverifiedPositions.rawValue)
        }
    }

    // MARK: Account and full resync

    /// Binds the database to `account` (nil: unbound). A different account than the bound one
    /// also forgets the cursor: the next pull starts from the beginning. Throws `.wrongAccount`
    /// (nothing changes) when the database is bound to another account and holds notes: one
    /// account's text must never be listed as, or uploaded into, another's.
    public func bindAccount(_ account: AccountID?) throws {
        try bookkeepingWrite { _ in
            let bound = try readMeta(.account)
            guard bound != account?.rawValue else { return }
            if let bound, let account, try holdsNotes() {
                throw NotesDatabaseError(
                    .wrongAccount,
                    "this device holds the notes of account \(bound); sign out first to sign in as \(account)")
            }
            if let account {
                try writeMeta(.account, account.rawValue)
            } else {
                try connection.run("DELETE FROM sync_meta WHERE key = ?", MetaKey.account.rawValue)
            }
            try connection.run(
                "DELETE FROM sync_meta WHERE key IN (?, ?, ?)", MetaKey.cursor.rawValue,
                MetaKey.ackedPosition.rawValue, MetaKey.unverifiedPositions.rawValue)
        }
    }

    /// The account this database syncs with; nil before the first sign-in.
    public func boundAccount() throws -> AccountID? {
        try readMeta(.account).map(AccountID.init)
    }

    /// Forgets the cursor, marks every note unconfirmed and records that a resync is in progress
    /// and why; the pages of the listing confirm the notes the server still has.
    ///
    /// The mark is stored, so a resync interrupted by a failure or a crash is still finished by
    /// the next pull that completes, even though that pull starts from a page's cursor or from
    /// none. A stronger reason already stored stays (a `.serverForgot` resync is not turned into a
    /// plain listing by a relaunch). A server that forgot writes forgot the newest acknowledged
    /// position too: the writes uploaded again record a new one.
    public func beginFullResync(_ reason: FullResyncReason = .cursorExpired) throws {
        try bookkeepingWrite { _ in
            let stored = try readMeta(.resyncing).flatMap(Self.resyncReason)
            try connection.run("DELETE FROM sync_meta WHERE key = ?", MetaKey.cursor.rawValue)
            if reason == .serverForgot {
                try connection.run(
                    "DELETE FROM sync_meta WHERE key IN (?, ?)", MetaKey.ackedPosition.rawValue,
                    MetaKey.unverifiedPositions.rawValue)
            }
            try connection.run("UPDATE notes SET confirmed = 0")
            try writeMeta(.resyncing, max(stored ?? reason, reason).rawValue)
        }
    }

    /// If a full resync is in progress, ends it. Notes the server once confirmed, that the listing
    /// did not list and that have no pending change are gone from the server: after a plain
    /// listing they go here too; after `.serverForgot` (the server lost writes) they are queued to
    /// be uploaded again, as new notes with the same ids, and the status row's notice says so.
    /// Notes never sent and pending edits stay. Returns how many notes were queued again.
    @discardableResult
    public func finishFullResync() throws -> Int {
        try bookkeepingWrite { touched in
            guard let mark = try readMeta(.resyncing) else { return 0 }
            try connection.run("DELETE FROM sync_meta WHERE key = ?", MetaKey.resyncing.rawValue)
            let forgotten = try forgetUnlistedTombstones()
            guard Self.resyncReason(mark) == .serverForgot else {
                let removed = try connection.run(
                    """
                    DELETE FROM notes
                    WHERE confirmed = 0 AND version > 0
                      AND NOT EXISTS (SELECT 1 FROM pending_changes p WHERE p.note_id = notes.id)
                    """)
                if removed + forgotten > 0 { touched.insert(.notes) }
                return 0
            }
            let lost = try connection.query(
                """
                SELECT id FROM notes WHERE confirmed = 0 AND version > 0 AND deleted = 0
                """, map: { NoteID($0.text(0)) }
            ).compactMap { $0 }
            // The server has no version of these: whatever is sent next creates them again.
            try connection.run(
                """
                UPDATE notes SET version = 0, version_tag = NULL, base_title = NULL, base_body = NULL,
                    confirmed = 1
                WHERE confirmed = 0 AND version > 0 AND deleted = 0
                """)
            let timestamp = now().timeIntervalSinceReferenceDate
            var queued = 0
            for id in lost where try !hasPendingChange(id) {
                guard let note = try storedNote(id) else { continue }
                try queue(
                    .put(NoteContent(title: note.title, body: note.body, conflictOf: note.conflictOf)),
                    for: id, foldingInto: nil, at: timestamp)
                queued += 1
            }
            if !lost.isEmpty {
                try connection.run(
                    "UPDATE sync_status SET notice = ? WHERE id = 1",
                    "The server had lost \(lost.count) of this device's notes (restored from an older "
                        + "backup?); this device sent them again.")
            }
            touched = .all
            return queued
        }
    }

    /// Inside `finishFullResync`'s transaction: forgets the tombstones the listing did not
    /// confirm and that wait for nothing, with this device's earlier texts of them. Returns how
    /// many went.
    ///
    /// Tombstones are never listed: those the server's history no longer has (purged, past
    /// retention) go after any listing, so a note another device sends again under the same id
    /// arrives instead of meeting a delete from the forgotten history (seed 1523). Their texts
    /// in `note_history` go too: with the row gone no list, trash or id prefix names the note
    /// again, so nothing could show them and nothing would ever remove them.
    private func forgetUnlistedTombstones() throws -> Int {
        let unlisted = try connection.query(
            """
            SELECT id FROM notes
            WHERE confirmed = 0 AND version > 0 AND deleted = 1
              AND NOT EXISTS (SELECT 1 FROM pending_changes p WHERE p.note_id = notes.id)
            """, map: { $0.text(0) })
        for id in unlisted {
            // The row first: a tombstone deleted here still holds its text, which the delete
            // trigger keeps in `note_history` as the row goes.
            try connection.run("DELETE FROM notes WHERE id = ?", id)
            try connection.run("DELETE FROM note_history WHERE note_id = ?", id)
        }
        return unlisted.count
    }

    static func resyncReason(_ mark: String) -> FullResyncReason? {
        // "1" is how versions before the reason was stored marked a resync.
        mark == "1" ? .cursorExpired : FullResyncReason(rawValue: mark)
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

    // MARK: Where texts were typed

    /// This device's label: a random id made at the first ask and kept, and its name (the host's
    /// name until ``setDeviceName(_:)``). The engine stamps it into every payload it seals.
    public func deviceLabel() throws -> DeviceLabel {
        DeviceLabel(
            id: try ownDeviceID(),
            name: try readMeta(.deviceName) ?? ProcessInfo.processInfo.hostName)
    }

    /// The name other devices show for texts typed here ("typed on laptop").
    public func setDeviceName(_ name: String) throws {
        try bookkeepingWrite { _ in try writeMeta(.deviceName, name) }
    }

    func ownDeviceID() throws -> String {
        if let id = try readMeta(.deviceID) { return id }
        let id = UUID().uuidString.lowercased()
        try writeMeta(.deviceID, id)
        return id
    }

    /// The `typed_on_*` columns for a text labelled `label`: NULL for this device's own text; a
    /// text from a payload without a label was typed on another device nobody named.
    static func typedOnColumns(_ label: DeviceLabel?, ownDevice: String) -> (id: String?, name: String?) {
        guard let label else { return ("", "another device") }
        return label.id == ownDevice ? (nil, nil) : (label.id, label.name)
    }

    // MARK: - Helpers

    enum MetaKey: String {
        case cursor
        /// The newest acknowledged write's position a pull verified (``ackedPositions()``).
        case ackedPosition = "acked_position"
        /// Positions of writes acknowledged since, newline-separated, oldest first.
        case unverifiedPositions = "unverified_positions"
        case account
        /// Present from `beginFullResync` until `finishFullResync`.
        case resyncing
        case deviceID = "device_id"
        case deviceName = "device_name"
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
            baseVersion: stored.baseVersion, baseVersionTag: stored.baseTag,
            createdAt: stored.createdAt, payload: stored.payload)
    }
}
