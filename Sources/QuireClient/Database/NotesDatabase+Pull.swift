import Foundation
import QuireDomain
import QuireSQLite

// MARK: - SyncRecords: pulling

extension NotesDatabase {
    /// Applies a page of the feed and stores its cursor in one transaction.
    ///
    /// Refuses the whole page (`.wrongAccount`, nothing written) when the database is bound to
    /// another account. For each note: one with a pending change is skipped (its change will meet
    /// the server's copy as a conflict); a copy no newer than the local one only confirms the note;
    /// a tombstone of a note never seen here is ignored; anything else becomes the note, its text
    /// the new base. Returns how many notes the page changed here (see ``applyPage``).
    @discardableResult
    public func apply(_ changes: [RemoteNote], cursor: Cursor, account: AccountID) throws -> Int {
        try pageWrite(notes: changes.count) { touched in
            try checkAccount(account)
            return try applyPage(changes, cursor: cursor, touched: &touched)
        }
    }

    /// Refuses a page for another account than the one bound to this database.
    func checkAccount(_ account: AccountID) throws {
        if let bound = try readMeta(.account), bound != account.rawValue {
            throw NotesDatabaseError(
                .wrongAccount, "changes for account \(account) in a database bound to \(bound)")
        }
    }

    /// The notes of a page and its cursor, inside the caller's transaction. Returns how many of
    /// them changed a note here: a note's own echo (this device's write or delete coming back in
    /// the feed), a copy no newer than the local one, a skipped one are not counted.
    func applyPage(_ changes: [RemoteNote], cursor: Cursor, touched: inout Touched) throws -> Int {
        try indexingSearchOnce { try applyEach(changes, cursor: cursor, touched: &touched) }
    }

    private func applyEach(_ changes: [RemoteNote], cursor: Cursor, touched: inout Touched) throws -> Int {
        var resync = try readMeta(.resyncing).flatMap(Self.resyncReason)
        let own = try ownDeviceID()
        var present = try presentNotes(among: changes)
        var changed = 0
        for remote in changes {
            guard present.contains(remote.id) else {
                // Nothing to compare with: no row, so no pending change or version either.
                present.insert(remote.id)
                if try store(remote, replacing: nil, ownDevice: own) {
                    touched.formUnion([.notes, .changes])
                    changed += 1
                }
                continue
            }
            if resync != nil, try restoreRegressed(remote) {
                // A listing older than a version this device was given: the server lost
                // writes, whatever began the resync (a 410 can hide a restore: seed 1815).
                if resync != .serverForgot {
                    resync = .serverForgot
                    try writeMeta(.resyncing, FullResyncReason.serverForgot.rawValue)
                }
                touched.formUnion([.notes, .changes])
                changed += 1
            } else if try applyRemote(
                remote, ownDevice: own, untrustedHistory: resync == .serverForgot)
            {
                touched.formUnion([.notes, .changes])
                changed += 1
            }
        }
        try writeMeta(.cursor, cursor.rawValue)
        return changed
    }

    /// The notes of `changes` this database has a row for (live or a tombstone), in one query:
    /// a first sync's notes are all new, and need no look-up of their own.
    private func presentNotes(among changes: [RemoteNote]) throws -> Set<NoteID> {
        let ids = changes.map { "\"\($0.id.description)\"" }.joined(separator: ",")
        return Set(
            try connection.query(
                "SELECT id FROM notes WHERE id IN (SELECT value FROM json_each(?))", "[\(ids)]"
            ) { NoteID($0.text(0)) }.compactMap { $0 })
    }

    /// One remote note, inside `apply`'s transaction. Returns whether a live row changed.
    ///
    ///
    /// `untrustedHistory`: in a resync after the server lost writes, a newer server copy of a
    /// note whose confirmed version this device holds under another tag may not descend from
    /// this device's text (the restore forgot it), so that text is kept as a copy first.
    func applyRemote(
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
    /// device has; one it never had is ignored). Returns whether a live row changed: a tombstone
    /// over one already here (this device's own delete coming back) only takes its version.
    func store(_ remote: RemoteNote, replacing local: StoredNote?, ownDevice: String) throws
        -> Bool
    {
        guard let content = remote.content else {
            guard let local else { return false }
            // The text goes too: someone deleted it after seeing it; nothing will show it again.
            try connection.run(
                """
                UPDATE notes SET deleted = 1, version = ?, version_tag = ?, title = '', body = '',
                    \(NoteBaseColumns.assignNone), confirmed = 1, revision = revision + 1,
                    arrived = 1, skipped_remote = NULL, deleted_at = ?
                WHERE id = ?
                """, remote.version, remote.versionTag, remote.updatedAt.timeIntervalSinceReferenceDate,
                remote.id.description)
            return !local.deleted
        }
        let typedOn = Self.typedOnColumns(content.typedOn, ownDevice: ownDevice)
        // The preview and, for a new row, the creation time are written with the row, so their
        // triggers have nothing to do (client migration 14); the title key too (migration 16).
        try connection.run(
            """
            INSERT INTO notes (id, title, body, updated_at, conflict_of, version, deleted,
                base_is_text, revision, confirmed, arrived, typed_on_id, typed_on_name,
                version_tag, preview, created_at, title_key)
            VALUES (?, ?, ?, ?, ?, ?, 0, 1, 0, 1, 1, ?, ?, ?,
                substr(ltrim(?, ' ' || char(9) || char(10) || char(13)), 1, \(NoteSummary.previewLength)),
                ?4, ?)
            ON CONFLICT (id) DO UPDATE SET title = excluded.title, body = excluded.body,
                preview = excluded.preview, title_key = excluded.title_key,
                updated_at = excluded.updated_at, conflict_of = excluded.conflict_of,
                version = excluded.version, version_tag = excluded.version_tag, deleted = 0,
                \(NoteBaseColumns.assignText()), revision = revision + 1, confirmed = 1, arrived = 1,
                typed_on_id = excluded.typed_on_id, typed_on_name = excluded.typed_on_name,
                skipped_remote = NULL
            """, remote.id.description, content.title, content.body,
            remote.updatedAt.timeIntervalSinceReferenceDate, content.conflictOf?.description,
            remote.version, typedOn.id, typedOn.name,
            remote.versionTag, content.body, Data(TitleSortKey.make(content.title)))
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
}
