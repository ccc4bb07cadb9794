import Foundation
import QuireDomain
import QuireSQLite

// MARK: - SyncRecords: the account and a full resync

extension NotesDatabase {
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
                UPDATE notes SET version = 0, version_tag = NULL, \(NoteBaseColumns.assignNone),
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
}
