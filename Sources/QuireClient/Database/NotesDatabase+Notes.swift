import Foundation
import QuireDomain
import QuireSQLite

// MARK: - NoteRecords: saving and deleting, as the user does

extension NotesDatabase {
    /// What a pending change asks the server to do.
    enum QueuedOperation {
        case put(NoteContent)
        case delete
    }

    /// Saves the note and queues its change in one transaction, then publishes the new rows.
    ///
    /// The note's unsent change (not yet handed to the engine, or refused) takes the new text: two
    /// saves before a sync send one change, and an edit retries a refused note. A change in flight
    /// stays frozen; the new text queues behind it. Saving a live note's current text with nothing
    /// unsent changes nothing. Saving a deleted note brings it back. Throws `SQLiteError` if the
    /// write fails, in which case neither the note nor the change is stored.
    public func saveNote(id: NoteID, title: String, body: String) throws {
        try saveNote(id: id, title: title, body: body, editedFrom: nil)
    }

    /// ``saveNote(id:title:body:)`` for an editor that read the note first: if its text is no
    /// longer `editedFrom` (a pull or another process changed it during the edit), the edit is
    /// merged three ways with that change; on a real clash the note keeps its new text and this
    /// text becomes a conflict copy linked to it, queued like any save. Nothing either side typed
    /// is lost, and the copy is made here, in the one place copies are made: the database.
    public func saveNote(id: NoteID, title: String, body: String, editedFrom: NoteText?) throws {
        try write { touched in
            let typed = NoteText(title: title, body: body)
            guard let editedFrom, let current = try storedNote(id), !current.deleted,
                NoteText(title: current.title, body: current.body) != editedFrom
            else {
                try saveLocally(id: id, title: title, body: body, touched: &touched)
                return
            }
            let now = NoteText(title: current.title, body: current.body)
            switch ConflictPolicy().resolve(base: editedFrom, local: .edited(typed), server: .edited(now)) {
            case .alreadyEqual:
                return
            case .merged(let merged):
                try saveLocally(id: id, title: merged.title, body: merged.body, touched: &touched)
            case .keepBoth(let copy):
                try insertCopy(
                    NoteContent(title: copy.title, body: copy.body, conflictOf: current.conflictOf ?? id),
                    at: self.now().timeIntervalSinceReferenceDate)
                touched.formUnion([.notes, .changes])
            case .recreate, .keepServer, .bothDeleted:
                try saveLocally(id: id, title: title, body: body, touched: &touched)
            }
        }
    }

    /// Tombstones the note and queues its delete in one transaction, then publishes.
    ///
    /// The note's unsent change is replaced by the delete. A delete is queued only if the server
    /// knows the note or a change for it is in flight (whose put may create it); otherwise the note
    /// is only tombstoned here. An unknown or already deleted id changes nothing.
    public func deleteNote(id: NoteID) throws {
        try write { touched in
            try deleteLocally(id, touched: &touched)
        }
    }

    // MARK: - The rules, inside the caller's transaction

    /// The save rule of `saveNote`, for any write that stands for a user's save.
    func saveLocally(id: NoteID, title: String, body: String, touched: inout Touched) throws {
        let existing = try storedNote(id)
        let unsent = try unsentChange(of: id)
        if let existing, !existing.deleted, existing.title == title, existing.body == body,
            unsent == nil
        {
            return
        }
        let timestamp = now().timeIntervalSinceReferenceDate
        try connection.run(
            """
            INSERT INTO notes (id, title, body, updated_at, revision, title_key) VALUES (?, ?, ?, ?, 1, ?)
            ON CONFLICT (id) DO UPDATE SET title = excluded.title, body = excluded.body,
                updated_at = excluded.updated_at, deleted = 0, revision = revision + 1, arrived = 0,
                typed_on_id = NULL, typed_on_name = NULL, title_key = excluded.title_key
            """, id.description, title, body, timestamp, Data(TitleSortKey.make(title)))
        if let fault = faultAfterNoteWrite { throw fault }
        let content = NoteContent(title: title, body: body, conflictOf: existing?.conflictOf)
        try queue(.put(content), for: id, foldingInto: unsent, at: timestamp)
        touched.formUnion([.notes, .changes])
    }

    /// The delete rule of `deleteNote`, for any write that stands for a user's delete.
    func deleteLocally(_ id: NoteID, touched: inout Touched) throws {
        guard let note = try storedNote(id), !note.deleted else { return }
        let timestamp = now().timeIntervalSinceReferenceDate
        try connection.run(
            "UPDATE notes SET deleted = 1, deleted_at = ?, revision = revision + 1, arrived = 0 WHERE id = ?",
            timestamp, id.description)
        let unsent = try unsentChange(of: id)
        if try note.version > 0 || hasChangeInFlight(id) {
            try queue(.delete, for: id, foldingInto: unsent, at: timestamp)
        } else if let unsent {
            try connection.run("DELETE FROM pending_changes WHERE seq = ?", unsent.seq)
        }
        touched.formUnion([.notes, .changes])
    }

    /// Queues `operation` for the note: folds it into `unsent` (keeping its place in the queue) or
    /// appends a new change.
    ///
    /// A folded change gets a fresh change id and is sealed anew: a refused change's id and
    /// payload were already sent, and the server answers a repeated id with its first answer, so
    /// new content needs a new id and new bytes. Its attempts start again.
    func queue(
        _ operation: QueuedOperation, for note: NoteID, foldingInto unsent: StoredChange?,
        at timestamp: Double
    ) throws {
        let content: NoteContent?
        let kind: StoredChange.Kind
        switch operation {
        case .put(let value):
            content = value
            kind = .put
        case .delete:
            content = nil
            kind = .delete
        }
        let changeID = ChangeID().description
        if let unsent {
            try connection.run(
                """
                UPDATE pending_changes SET change_id = ?, kind = ?, title = ?, body = ?,
                    conflict_of = ?, refused = 0, refused_reason = NULL, created_at = ?,
                    payload = NULL, base_version = NULL, base_tag = NULL, attempts = 0, retry_at = NULL,
                    last_error = NULL
                WHERE seq = ?
                """, changeID, kind.rawValue, content?.title, content?.body,
                content?.conflictOf?.description, timestamp, unsent.seq)
        } else {
            try connection.run(
                """
                INSERT INTO pending_changes (change_id, note_id, kind, title, body, conflict_of,
                    created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, changeID, note.description, kind.rawValue, content?.title, content?.body,
                content?.conflictOf?.description, timestamp)
        }
    }
}
