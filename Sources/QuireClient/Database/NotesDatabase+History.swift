import Foundation
import QuireDomain
import QuireSQLite

// MARK: - History and trash on this device

/// The server's state of a note, as its history or trash said: what a restore is written on.
public struct ServerNoteState: Hashable, Sendable {
    public var version: Int
    public var versionTag: String?
    public var deleted: Bool

    public init(version: Int, versionTag: String?, deleted: Bool) {
        self.version = version
        self.versionTag = versionTag
        self.deleted = deleted
    }
}

/// A note deleted on this device or here from a pull, with the last text this device had of it.
public struct LocalTrashedNote: Hashable, Sendable {
    public var id: NoteID
    public var title: String
    public var body: String
    public var deletedAt: Date
    /// True while its delete has not reached the server.
    public var deleteUnsent: Bool
}

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
    /// delete, with the last text this device had of each, most recently deleted first.
    public func localTrash() throws -> [LocalTrashedNote] {
        try connection.query(
            """
            SELECT n.id,
                CASE WHEN n.title <> '' OR n.body <> '' THEN n.title ELSE h.title END,
                CASE WHEN n.title <> '' OR n.body <> '' THEN n.body ELSE h.body END,
                n.updated_at,
                EXISTS (SELECT 1 FROM pending_changes p WHERE p.note_id = n.id AND p.kind = 'delete')
            FROM notes n LEFT JOIN note_history h ON h.seq = (
                SELECT MAX(seq) FROM note_history WHERE note_id = n.id)
            WHERE n.deleted = 1 AND (n.title <> '' OR n.body <> '' OR h.seq IS NOT NULL)
            ORDER BY n.updated_at DESC
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
    /// A note this device no longer has, or has at an older state than a tombstone the server
    /// holds (`server`, from its history or trash), is first stored as that tombstone, so the
    /// restore is written on the server's version and brings the same note back everywhere (not
    /// a copy under a new id). A note with a change waiting keeps it; the save folds into it.
    /// `conflictOf` links a note this device never had to its original. Throws `SQLiteError`.
    public func restoreNote(
        id: NoteID, title: String, body: String, conflictOf: NoteID? = nil, server: ServerNoteState?
    ) throws {
        try write { touched in
            let existing = try storedNote(id)
            if let server, server.deleted, (existing?.version ?? 0) < server.version,
                existing.map({ $0.deleted }) ?? true, try !hasPendingChange(id)
            {
                try connection.run(
                    """
                    INSERT INTO notes (id, title, body, updated_at, conflict_of, version, deleted, version_tag,
                        confirmed)
                    VALUES (?, '', '', ?, ?, ?, 1, ?, 1)
                    ON CONFLICT (id) DO UPDATE SET version = excluded.version,
                        version_tag = excluded.version_tag, base_title = NULL, base_body = NULL, confirmed = 1
                    """, id.description, now().timeIntervalSinceReferenceDate, conflictOf?.description,
                    server.version, server.versionTag)
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
