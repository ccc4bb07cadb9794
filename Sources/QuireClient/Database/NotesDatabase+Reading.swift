import Foundation
import QuireDomain
import QuireSQLite

/// A note's row as the write paths need it (tombstones included).
struct StoredNote {
    var id: NoteID
    var title: String
    var body: String
    var conflictOf: NoteID?
    var version: Int
    var deleted: Bool
    var revision: Int
    var base: NoteText?
    /// The server's tag of `version`; nil when none is known.
    var versionTag: String? = nil
}

/// A pending change's row.
struct StoredChange {
    enum Kind: String {
        case put
        case delete
    }

    var seq: Int
    var changeID: ChangeID
    var noteID: NoteID
    var kind: Kind
    var content: NoteContent?
    var baseVersion: Int?
    var baseTag: String? = nil
    var inFlight: Bool
    var refused: Bool
    /// When the change was first queued (the first of the saves folded into it).
    var createdAt: Date
    /// The sealed payload as first sent (in flight only).
    var payload: String?
    /// Failed sends so far (see ``ChangeRetry``).
    var attempts: Int = 0
}

extension NotesDatabase {
    // MARK: - Published values

    /// Live notes, newest first, each with its sync facts computed in the same query: pending
    /// changes (`pending_changes_by_note`), a refused change, and whether it is or has a live
    /// conflict copy (`notes_by_conflict_of`, named: left to itself the planner may pick the list
    /// index for that lookup and scan every live note once per row).
    static let noteRowsSelect = noteRowsSelect(body: "n.body")

    /// The list select reading `body` as the body column: the whole body, or a preview.
    static func noteRowsSelect(body: String) -> String {
        """
        SELECT n.id, n.title, \(body), n.updated_at, n.conflict_of, n.version,
               (SELECT COUNT(*) FROM pending_changes p WHERE p.note_id = n.id),
               EXISTS (SELECT 1 FROM pending_changes p WHERE p.note_id = n.id AND p.refused = 1),
               n.conflict_of IS NOT NULL
                 OR EXISTS (
                    SELECT 1 FROM notes c INDEXED BY notes_by_conflict_of
                    WHERE c.conflict_of IS NOT NULL AND c.conflict_of = n.id AND c.deleted = 0),
               (SELECT CASE WHEN p.refused = 1
                              THEN COALESCE(p.refused_reason, 'The server refused this change.')
                            ELSE 'Not sent after ' || p.attempts || ' tries: '
                              || COALESCE(p.last_error, 'unknown error')
                       END
                FROM pending_changes p
                WHERE p.note_id = n.id
                  AND (p.refused = 1 OR p.attempts >= \(ChangeRetry.stuckAfterAttempts))
                ORDER BY p.seq LIMIT 1),
               n.arrived, n.typed_on_name
        FROM notes n
        """
    }

    /// The list stream's current value (also for tests that read it without subscribing).
    package func readNoteRows() throws -> [NoteRecord] {
        try connection.query(
            Self.noteRowsSelect + " WHERE n.deleted = 0 ORDER BY n.updated_at DESC, n.id",
            map: Self.noteRecord)
    }

    /// The summary stream's current value: bodies cut to a preview inside SQLite, so the rest of
    /// each body is never copied out.
    package func readNoteSummaryRows() throws -> [NoteRecord] {
        try connection.query(
            Self.noteRowsSelect(body: "n.preview")
                + " WHERE n.deleted = 0 ORDER BY n.updated_at DESC, n.id",
            map: Self.noteRecord)
    }

    /// One live note with its sync facts; nil if unknown or deleted.
    public func noteRow(id: NoteID) throws -> NoteRecord? {
        try connection.queryFirst(
            Self.noteRowsSelect + " WHERE n.id = ? AND n.deleted = 0", id.description,
            map: Self.noteRecord)
    }

    static func noteRecord(_ row: SQLiteRow) throws -> NoteRecord {
        guard let id = NoteID(row.text(0)) else {
            throw SQLiteError(code: 0, message: "malformed note id \(row.text(0))", sql: nil)
        }
        return NoteRecord(
            id: id, title: row.text(1), body: row.text(2),
            updatedAt: Date(timeIntervalSinceReferenceDate: row.double(3)),
            conflictOf: row.optionalText(4).flatMap(NoteID.init),
            version: row.int(5), pendingCount: row.int(6), refused: row.bool(7),
            inConflict: row.bool(8), syncIssue: row.optionalText(9), arrived: row.bool(10),
            typedOn: row.optionalText(11))
    }

    /// Of `ids`, the notes whose delete came from another device (tombstones that arrived).
    public func deletedElsewhere(_ ids: [NoteID]) throws -> Set<NoteID> {
        var found: Set<NoteID> = []
        for id in ids {
            let arrived = try connection.queryFirst(
                "SELECT arrived FROM notes WHERE id = ? AND deleted = 1", id.description
            ) { $0.bool(0) }
            if arrived == true { found.insert(id) }
        }
        return found
    }

    /// Publishes every stream again if another connection (another process of this device)
    /// committed since the last look, so a `quire watch` sees saves made by a `quire new` at once
    /// and pushes them. SQLite's `PRAGMA data_version` changes exactly then; cheap to ask often.
    public func noticeChangesFromOtherProcesses() throws {
        let version = try connection.queryFirst("PRAGMA data_version") { $0.int(0) }
        defer { lastDataVersion = version }
        guard version != lastDataVersion else { return }
        publish(.all)
    }

    /// True when the database holds any note, tombstones and pending changes included.
    public func holdsNotes() throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM notes LIMIT 1") { _ in true } ?? false
    }

    func readPendingCount() throws -> Int {
        try connection.queryFirst("SELECT COUNT(*) FROM pending_changes") { $0.int(0) } ?? 0
    }

    package func readStatus() throws -> SyncStatusRecord {
        let conflicts =
            try connection.queryFirst(
                "SELECT COUNT(*) FROM notes WHERE deleted = 0 AND conflict_of IS NOT NULL"
            ) { $0.int(0) } ?? 0
        let oldest = try connection.queryFirst("SELECT MIN(created_at) FROM pending_changes") {
            $0.optionalDouble(0)
        }
        // Counted from `pending_changes_by_state` (migration 13), never by reading the changes.
        let refused =
            try connection.queryFirst("SELECT COUNT(*) FROM pending_changes WHERE refused = 1") { $0.int(0) } ?? 0
        let stuck =
            try connection.queryFirst(
                "SELECT COUNT(*) FROM pending_changes WHERE refused = 0 AND attempts >= ?",
                ChangeRetry.stuckAfterAttempts
            ) { $0.int(0) } ?? 0
        let notice = try connection.queryFirst("SELECT notice FROM sync_status WHERE id = 1") {
            $0.optionalText(0)
        }
        return SyncStatusRecord(
            run: try readRunRecord(), pendingCount: try readPendingCount(), conflictCount: conflicts,
            oldestPendingSince: (oldest ?? nil).map(Date.init(timeIntervalSinceReferenceDate:)),
            refusedCount: refused, stuckCount: stuck, notice: notice ?? nil)
    }

    func readRunRecord() throws -> SyncRunRecord {
        try connection.queryFirst(
            """
            SELECT last_synced_at, is_syncing, last_run_failed, last_error, undecryptable_count,
                   last_failure_kind, metrics
            FROM sync_status WHERE id = 1
            """
        ) { row in
            SyncRunRecord(
                lastSyncedAt: row.optionalDouble(0).map(Date.init(timeIntervalSinceReferenceDate:)),
                isSyncing: row.bool(1), lastRunFailed: row.bool(2), lastError: row.optionalText(3),
                undecryptableCount: row.int(4),
                lastFailureKind: row.optionalText(5).flatMap(SyncFailure.Kind.init(rawValue:)),
                metrics: SyncMetrics(json: row.optionalText(6)))
        } ?? SyncRunRecord()
    }

    // MARK: - Rows for the write paths

    /// The note's row, tombstone or not; nil if this database never had it.
    func storedNote(_ id: NoteID) throws -> StoredNote? {
        try connection.queryFirst(
            """
            SELECT title, body, conflict_of, version, deleted, revision, version_tag,
                   \(NoteBaseColumns.select)
            FROM notes WHERE id = ?
            """, id.description
        ) { row in
            let text = NoteText(title: row.text(0), body: row.text(1))
            return StoredNote(
                id: id, title: text.title, body: text.body,
                conflictOf: row.optionalText(2).flatMap(NoteID.init), version: row.int(3),
                deleted: row.bool(4), revision: row.int(5), base: NoteBaseColumns.base(row, from: 7, text: text),
                versionTag: row.optionalText(6))
        }
    }

    static let changeSelect = """
        SELECT seq, change_id, note_id, kind, title, body, conflict_of, base_version, in_flight,
               refused, created_at, payload, attempts, base_tag
        FROM pending_changes
        """

    static func storedChange(_ row: SQLiteRow) throws -> StoredChange {
        guard let changeID = ChangeID(row.text(1)), let noteID = NoteID(row.text(2)),
            let kind = StoredChange.Kind(rawValue: row.text(3))
        else {
            throw SQLiteError(code: 0, message: "malformed pending change \(row.int(0))", sql: nil)
        }
        let content =
            kind == .put
            ? NoteContent(
                title: row.text(4), body: row.text(5),
                conflictOf: row.optionalText(6).flatMap(NoteID.init))
            : nil
        return StoredChange(
            seq: row.int(0), changeID: changeID, noteID: noteID, kind: kind, content: content,
            baseVersion: row.optionalInt(7), baseTag: row.optionalText(13), inFlight: row.bool(8),
            refused: row.bool(9),
            createdAt: Date(timeIntervalSinceReferenceDate: row.double(10)),
            payload: row.optionalText(11), attempts: row.int(12))
    }

    func storedChange(_ id: ChangeID) throws -> StoredChange? {
        try connection.queryFirst(
            Self.changeSelect + " WHERE change_id = ?", id.description, map: Self.storedChange)
    }

    /// The note's change that has not been handed to the engine (at most one: later edits fold in).
    func unsentChange(of note: NoteID) throws -> StoredChange? {
        try connection.queryFirst(
            Self.changeSelect + " WHERE note_id = ? AND in_flight = 0 ORDER BY seq LIMIT 1",
            note.description, map: Self.storedChange)
    }

    func hasChangeInFlight(_ note: NoteID) throws -> Bool {
        try connection.queryFirst(
            "SELECT 1 FROM pending_changes WHERE note_id = ? AND in_flight = 1", note.description
        ) { _ in true } ?? false
    }

    /// The note's pending changes, oldest first.
    func pendingChanges(of note: NoteID) throws -> [StoredChange] {
        try connection.query(
            Self.changeSelect + " WHERE note_id = ? ORDER BY seq", bindings: [note.description],
            map: Self.storedChange)
    }

    func hasPendingChange(_ note: NoteID) throws -> Bool {
        try connection.queryFirst(
            "SELECT 1 FROM pending_changes WHERE note_id = ? LIMIT 1", note.description
        ) { _ in true } ?? false
    }
}
