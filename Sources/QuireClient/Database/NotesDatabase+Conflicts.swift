import Foundation
import QuireDomain
import QuireSQLite

// MARK: - Conflicts: the engine's settlement and the user's resolution

extension NotesDatabase {
    /// What the conflict policy needs for the note of `change`: its base (the last text the
    /// server confirmed; nil if never), its current local state (every later save included), its
    /// conflict link and its revision. Throws `.unknownChange` or `.unknownNote`.
    public func conflictContext(for change: ChangeID) throws -> ConflictContext {
        let stored = try requireChange(change)
        guard let note = try storedNote(stored.noteID) else {
            throw NotesDatabaseError(.unknownNote, "no note \(stored.noteID) for change \(change)")
        }
        return ConflictContext(
            base: note.base,
            local: note.deleted ? .deleted : .edited(NoteText(title: note.title, body: note.body)),
            conflictOf: note.conflictOf, revision: note.revision)
    }

    /// Writes a conflict's outcome in one transaction.
    ///
    /// Every pending change of the note is dropped; the server's copy becomes the note's version
    /// and base. `.takeServer` makes the note the server's copy (or its tombstone); `.push` gives
    /// it the settled text and queues one put on top of the server's version. A `copy` becomes a
    /// new note, queued like a save, unless a live copy of the same note already holds exactly
    /// that text (a conflict met twice must not pile up copies). Throws `.staleConflict` (nothing written) when the note was
    /// saved or deleted since `expectedRevision`, and `.unknownChange` when the change is gone.
    public func settleConflict(_ settlement: ConflictSettlement) throws {
        try bookkeepingWrite { touched in
            let change = try requireChange(settlement.change)
            let noteID = change.noteID
            guard let note = try storedNote(noteID), note.revision == settlement.expectedRevision
            else {
                throw NotesDatabaseError(
                    .staleConflict, "note \(noteID) changed since its conflict was read")
            }
            let timestamp = now().timeIntervalSinceReferenceDate
            let server = settlement.server
            try connection.run(
                "DELETE FROM pending_changes WHERE note_id = ?", noteID.description)
            try connection.run(
                """
                UPDATE notes SET version = ?1, version_tag = ?2, \(NoteBaseColumns.assign(title: "?3", body: "?4")),
                    confirmed = 1, skipped_remote = NULL, revision = revision + 1
                WHERE id = ?5
                """, server.version, server.versionTag, server.content?.title,
                server.content?.body, noteID.description)
            switch settlement.outcome {
            case .takeServer:
                if let content = server.content {
                    try setText(
                        of: noteID, to: content,
                        updatedAt: server.updatedAt.timeIntervalSinceReferenceDate, arrived: true,
                        typedOn: Self.typedOnColumns(content.typedOn, ownDevice: try ownDeviceID()))
                } else {
                    try connection.run(
                        "UPDATE notes SET deleted = 1, arrived = 1, deleted_at = ? WHERE id = ?",
                        server.updatedAt.timeIntervalSinceReferenceDate, noteID.description)
                }
            case .push(let content):
                try setText(
                    of: noteID, to: content, updatedAt: timestamp, arrived: false, typedOn: (nil, nil))
                try queue(.put(content), for: noteID, foldingInto: nil, at: timestamp)
            }
            if let copy = settlement.copy, try !hasLiveCopy(equalTo: copy.content) {
                try insertCopy(copy.content, id: copy.id, at: timestamp)
            }
            touched = .all
        }
    }

    /// Resolves the conflict copy `copy` against its original, in one transaction, with the same
    /// rules as a user's saves and deletes (each result is queued to sync).
    ///
    /// `.mine`: the original takes the copy's title (without its "(conflict copy)" mark) and body,
    /// and the copy is deleted. `.theirs`:
    /// the copy is deleted. `.both`: the copy stays as an ordinary note, its link removed (and
    /// sent, so other devices unlink it too). Throws `.unknownNote` when `copy` is not a live note
    /// and `.notAConflictCopy` when it has no original.
    public func resolveConflict(copy: NoteID, keep choice: ConflictChoice) throws {
        try write { touched in
            guard let copyNote = try storedNote(copy), !copyNote.deleted else {
                throw NotesDatabaseError(.unknownNote, "no note \(copy)")
            }
            guard let original = copyNote.conflictOf else {
                throw NotesDatabaseError(.notAConflictCopy, "note \(copy) is not a conflict copy")
            }
            switch choice {
            case .mine:
                try saveLocally(
                    id: original, title: ConflictPolicy.originalTitle(fromCopyTitle: copyNote.title),
                    body: copyNote.body, touched: &touched)
                try deleteLocally(copy, touched: &touched)
            case .theirs:
                try deleteLocally(copy, touched: &touched)
            case .both:
                try connection.run(
                    "UPDATE notes SET conflict_of = NULL, revision = revision + 1 WHERE id = ?",
                    copy.description)
                try queue(
                    .put(NoteContent(title: copyNote.title, body: copyNote.body)), for: copy,
                    foldingInto: try unsentChange(of: copy),
                    at: now().timeIntervalSinceReferenceDate)
                touched.formUnion([.notes, .changes])
            }
        }
    }

    /// Writes a conflict copy typed on this device (its `conflictOf` names the original) and
    /// queues it like a new note, inside the caller's transaction: the one way copies are made.
    func insertCopy(_ content: NoteContent, id: NoteID = NoteID(), at timestamp: Double) throws {
        try connection.run(
            """
            INSERT INTO notes (id, title, body, updated_at, conflict_of, revision)
            VALUES (?, ?, ?, ?, ?, 1)
            """, id.description, content.title, content.body, timestamp, content.conflictOf?.description)
        try queue(.put(content), for: id, foldingInto: nil, at: timestamp)
    }

    /// True when a live conflict copy of the same original already holds exactly this text.
    func hasLiveCopy(equalTo content: NoteContent) throws -> Bool {
        guard let original = content.conflictOf else { return false }
        return try connection.queryFirst(
            """
            SELECT 1 FROM notes
            WHERE conflict_of = ? AND deleted = 0 AND title = ? AND body = ? LIMIT 1
            """, original.description, content.title, content.body
        ) { _ in true } ?? false
    }

    /// Makes `content` the note's live text and link.
    /// `arrived`: the text is another device's (the server's copy), not one written here.
    private func setText(
        of note: NoteID, to content: NoteContent, updatedAt: Double, arrived: Bool,
        typedOn: (id: String?, name: String?)
    ) throws {
        try connection.run(
            """
            UPDATE notes SET title = ?, body = ?, conflict_of = ?, deleted = 0, updated_at = ?,
                arrived = ?, typed_on_id = ?, typed_on_name = ?
            WHERE id = ?
            """, content.title, content.body, content.conflictOf?.description, updatedAt, arrived,
            typedOn.id, typedOn.name, note.description)
    }
}
