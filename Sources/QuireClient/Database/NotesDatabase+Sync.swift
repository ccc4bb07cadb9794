import Foundation
import QuireDomain
import QuireSQLite

// MARK: - SyncRecords: the engine's half, pushing (pulling, resync and metadata: NotesDatabase+Pull, +Resync, +SyncMeta)

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
                    UPDATE notes SET version = ?1, version_tag = ?2,
                        \(NoteBaseColumns.assign(title: "?3", body: "?4")), confirmed = 1
                    WHERE id = ?5
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

    func keepSkipped(_ remote: RemoteNote) throws {
        let encoded = try JSONEncoder().encode(
            SkippedRemote(
                version: remote.version, updatedAt: remote.updatedAt, content: remote.content,
                versionTag: remote.versionTag))
        try connection.run(
            "UPDATE notes SET skipped_remote = ? WHERE id = ?", String(decoding: encoded, as: UTF8.self),
            remote.id.description)
    }

    /// The note's kept remote copy, removed from the row.
    func takeSkipped(_ id: NoteID) throws -> RemoteNote? {
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
}
