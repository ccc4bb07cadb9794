import Foundation
import QuireDomain
import QuireSQLite

// MARK: - Another history: a server restored from an older backup

extension NotesDatabase {
    /// Whether the server's copy already has this device's title and every line of its body:
    /// then keeping it loses nothing, and no copy is needed.
    static func holdsEveryLine(of local: StoredNote, _ remote: RemoteNote) -> Bool {
        guard let content = remote.content, content.title == local.title else { return false }
        let theirs = Set(content.body.split(separator: "\n", omittingEmptySubsequences: false))
        return local.body.split(separator: "\n", omittingEmptySubsequences: false)
            .allSatisfy(theirs.contains)
    }

    /// Whether this device once confirmed the server's copy's version (number and tag). A copy
    /// without a tag (an older server) counts as held: nothing can be told.
    func hasHeld(_ remote: RemoteNote) throws -> Bool {
        guard let tag = remote.versionTag else { return true }
        return try connection.queryFirst(
            "SELECT 1 FROM seen_versions WHERE note_id = ? AND version = ? AND tag = ?",
            remote.id.description, remote.version, tag
        ) { _ in true } ?? false
    }

    /// Before a server copy from another history replaces `local`: keeps this device's live text
    /// as a conflict copy of the note (once), unless the server's copy is the same text.
    func keepAsCopy(_ local: StoredNote, against remote: RemoteNote) throws {
        guard !local.deleted, !Self.holdsEveryLine(of: local, remote) else { return }
        let copy = NoteContent(
            title: ConflictPolicy().copyTitle(for: local.title), body: local.body,
            conflictOf: local.conflictOf ?? local.id)
        guard try !hasLiveCopy(equalTo: copy) else { return }
        try insertCopy(copy, at: now().timeIntervalSinceReferenceDate)
    }

    /// In a resync after the server lost writes: a note this device holds at a later version than
    /// the server's is one whose acknowledged writes the server forgot. The server's copy becomes
    /// the note's version and base (so a merge never reads the server's older text as an edit that
    /// reverts this device's), and, with nothing pending, this device's text (or delete) is queued
    /// on top of it. Returns false for a note that did not regress.
    ///
    /// A tombstone of this device's own acknowledged delete keeps the version it deleted (the
    /// tombstone's own arrives with a pull), so a listing that shows the note alive at exactly that
    /// version, same tag, forgot the delete too (seed 4726: a second restore of the same backup).
    func restoreRegressed(_ remote: RemoteNote) throws -> Bool {
        guard let local = try storedNote(remote.id) else { return false }
        let pending = try hasPendingChange(remote.id)
        let forgotDelete =
            local.deleted && !remote.isDeleted && local.version == remote.version
            && !remote.isAnotherText(than: local.versionTag) && !pending
        guard local.version > remote.version || forgotDelete else { return false }
        try rebase(local, onto: remote)
        return true
    }

    /// A 409 whose server copy is older than the change's base: the server forgot writes it had
    /// acknowledged (restored from a backup). Merging against that copy would read the server's
    /// older text as an edit that reverts this device's; instead the note is rebased onto it (its
    /// version and base become the server's) and this device's current state is queued on top, in
    /// place of every pending change of the note. Throws `.unknownChange`.
    public func rebaseOnForgetfulServer(_ change: ChangeID, server: RemoteNote) throws {
        try bookkeepingWrite { touched in
            let stored = try requireChange(change)
            try connection.run("DELETE FROM pending_changes WHERE note_id = ?", stored.noteID.description)
            guard let local = try storedNote(stored.noteID) else { return }
            try rebase(local, onto: server)
            try connection.run(
                "UPDATE sync_status SET notice = ? WHERE id = 1",
                "The server had lost recent changes (restored from an older backup?); this device "
                    + "sent its notes again.")
            touched = .all
        }
    }

    /// Makes the server's copy the note's version and base and, with nothing pending, queues this
    /// device's state (its text, or its delete) on top when it differs.
    ///
    /// That is right when the server's copy is an ancestor of this device's text: a version this
    /// device once held (the backup's). A copy it never held may have been written after the
    /// restore by a device that had seen this one's text, so queuing this text on top would undo
    /// theirs unseen (seed 1509 with restores): then the server's copy becomes the note, and this
    /// device's text (with its pending edits) is kept as a conflict copy.
    func rebase(_ local: StoredNote, onto remote: RemoteNote) throws {
        guard try hasHeld(remote) else {
            try connection.run("DELETE FROM pending_changes WHERE note_id = ?", remote.id.description)
            try keepAsCopy(local, against: remote)
            _ = try store(remote, replacing: local, ownDevice: try ownDeviceID())
            return
        }
        try connection.run(
            """
            UPDATE notes SET version = ?1, version_tag = ?2, \(NoteBaseColumns.assign(title: "?3", body: "?4")),
                confirmed = 1
            WHERE id = ?5
            """, remote.version, remote.versionTag, remote.content?.title, remote.content?.body,
            remote.id.description)
        guard try !hasPendingChange(remote.id) else { return }
        let timestamp = now().timeIntervalSinceReferenceDate
        if local.deleted {
            if !remote.isDeleted { try queue(.delete, for: remote.id, foldingInto: nil, at: timestamp) }
        } else if remote.content?.title != local.title || remote.content?.body != local.body
            || remote.content?.conflictOf != local.conflictOf
        {
            // The link counts too: a copy kept as its own note ("keep both") after the backup
            // would stay a copy on the server (10-device seed 79 with restores).
            try queue(
                .put(NoteContent(title: local.title, body: local.body, conflictOf: local.conflictOf)),
                for: remote.id, foldingInto: nil, at: timestamp)
        }
    }
}
