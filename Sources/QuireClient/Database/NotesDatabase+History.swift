import Foundation
import QuireDomain
import QuireSQLite

// MARK: - History and trash on this device

extension NotesDatabase {
    /// The earlier texts this device kept of the note (the newest ``NotesSchema/textsKeptPerNote``),
    /// newest first, then its current text (live or not, when it has one) first of all, marked
    /// current when it is the server's confirmed version.
    public func localHistory(of id: NoteID) throws -> [NoteVersion] {
        let own = try ownDeviceID()
        var versions: [NoteVersion] = []
        if let note = try storedNote(id), !note.deleted {
            let typed = try connection.queryFirst(
                "SELECT typed_on_id, typed_on_name, updated_at FROM notes WHERE id = ?", id.description
            ) { ($0.optionalText(0), $0.optionalText(1), $0.double(2)) }
            let confirmed = note.version > 0 && note.base == NoteText(title: note.title, body: note.body)
            versions.append(
                Self.version(
                    version: confirmed ? note.version : nil, localID: confirmed ? nil : 0,
                    savedAt: typed?.2 ?? 0, title: note.title, body: note.body, typedOnID: typed?.0 ?? nil,
                    typedOnName: typed?.1 ?? nil, own: own, current: confirmed))
        }
        versions += try connection.query(
            """
            SELECT seq, title, body, saved_at, version, typed_on_id, typed_on_name FROM note_history
            WHERE note_id = ? ORDER BY seq DESC
            """, id.description
        ) { row in
            Self.version(
                version: row.optionalInt(4), localID: row.int(0), savedAt: row.double(3), title: row.text(1),
                body: row.text(2), typedOnID: row.optionalText(5), typedOnName: row.optionalText(6), own: own,
                current: false)
        }
        return versions
    }

    /// The notes deleted on this device (their delete sent or not) or here from another device's
    /// delete, with the last text this device had of each and when each was deleted (this
    /// device's time of a delete typed here, the server's of one pulled), most recently deleted
    /// first.
    public func localTrash() throws -> [LocalTrashedNote] {
        try connection.query(
            """
            SELECT n.id,
                CASE WHEN n.title <> '' OR n.body <> '' THEN n.title ELSE h.title END,
                CASE WHEN n.title <> '' OR n.body <> '' THEN n.body ELSE h.body END,
                COALESCE(n.deleted_at, n.updated_at) AS went,
                EXISTS (SELECT 1 FROM pending_changes p WHERE p.note_id = n.id AND p.kind = 'delete')
            FROM notes n LEFT JOIN note_history h ON h.seq = (
                SELECT MAX(seq) FROM note_history WHERE note_id = n.id)
            WHERE n.deleted = 1 AND (n.title <> '' OR n.body <> '' OR h.seq IS NOT NULL)
            ORDER BY went DESC
            """
        ) { row in
            guard let id = NoteID(row.text(0)) else {
                throw SQLiteError(code: 0, message: "malformed note id \(row.text(0))", sql: nil)
            }
            return LocalTrashedNote(
                id: id, title: row.text(1), body: row.text(2),
                deletedAt: Date(timeIntervalSinceReferenceDate: row.double(3)), deleteUnsent: row.bool(4))
        }
    }

    /// Makes `title` and `body` the note's text again as an ordinary save, queued for sync, in one
    /// transaction: a restore never rewrites history, it is a new version on top of the current
    /// one, and the text it replaces stays in the history.
    ///
    /// When the server holds a newer state than this device (`server`, from its history or
    /// trash) and the note has no change waiting, that state is stored first, as a pull would
    /// store it: a tombstone, or the current text as the note's text and base. The restore is then
    /// written on the server's version and restores exactly that text (not a merge with what this
    /// device missed), and a deleted note comes back under its own id everywhere (not as a copy).
    /// A note with a change waiting keeps it; the save folds into it. `conflictOf` links a note
    /// this device never had to its original. Throws `SQLiteError`.
    public func restoreNote(
        id: NoteID, title: String, body: String, conflictOf: NoteID? = nil, server: ServerNoteState?
    ) throws {
        try write { touched in
            let existing = try storedNote(id)
            if let server, (existing?.version ?? 0) < server.version, try !hasPendingChange(id) {
                let current = server.deleted ? nil : server.current
                try connection.run(
                    """
                    INSERT INTO notes (id, title, body, updated_at, conflict_of, version, deleted, version_tag,
                        base_is_text, confirmed)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 1)
                    ON CONFLICT (id) DO UPDATE SET title = ?2, body = ?3, version = ?6, deleted = ?7,
                        version_tag = ?8, \(NoteBaseColumns.assignText(when: "?9")), confirmed = 1,
                        revision = revision + 1
                    """, id.description, current?.title ?? "", current?.body ?? "",
                    now().timeIntervalSinceReferenceDate, (current?.conflictOf ?? conflictOf)?.description,
                    server.version, current == nil, server.versionTag, current != nil)
            }
            try saveLocally(id: id, title: title, body: body, touched: &touched)
        }
    }

    private static func version(
        version: Int?, localID: Int?, savedAt: Double, title: String, body: String, typedOnID: String?,
        typedOnName: String?, own: String, current: Bool
    ) -> NoteVersion {
        let here = typedOnID == nil || typedOnID == own
        let label = here ? nil : DeviceLabel(id: typedOnID ?? "", name: typedOnName ?? "another device")
        return NoteVersion(
            version: version, localID: localID, savedAt: Date(timeIntervalSinceReferenceDate: savedAt),
            title: title, body: body, typedOn: label, typedHere: here, isCurrent: current)
    }
}
