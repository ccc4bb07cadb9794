import Foundation
import QuireDomain
import QuireSQLite

/// The notes database's schema, as numbered migrations (`PRAGMA user_version` counts them).
///
/// Never edit a migration that has shipped: add the next one. Each runs in its own transaction.
package enum NotesSchema {
    package static var migrations: [SQLiteMigrator.Migration] {
        [
            createTables, indexConflictCopies, recordFailureKindAndMetrics, freezeSealedPayloads,
            indexTheList, trackAttemptsAndNotices, tagVersions, indexForSearch, recordCreationTimes,
            keepSeenVersionsUnderUpserts, NotesSchema.keepEarlierTexts, NotesSchema.recordDeleteTimes,
            indexPendingChangesForStatus, storePagesInBulk, keepBasesOnlyWhereTheyDiffer, indexListOrders,
            dropTheRecencyIndex,
        ]
    }

    // MARK: - 1: the full schema

    /// Notes (live and tombstones), pending changes in send order, sync metadata, the status row.
    static func createTables(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE notes (
                id          TEXT PRIMARY KEY NOT NULL,
                title       TEXT NOT NULL,
                body        TEXT NOT NULL,
                updated_at  REAL NOT NULL,
                conflict_of TEXT,
                -- The last version the server confirmed; 0: never confirmed.
                version     INTEGER NOT NULL DEFAULT 0,
                deleted     INTEGER NOT NULL DEFAULT 0,
                -- The text of the last server-confirmed version: the three-way merge's ancestor.
                base_title  TEXT,
                base_body   TEXT,
                -- Bumped by every local write to the note, so a conflict decision can be checked.
                revision    INTEGER NOT NULL DEFAULT 0,
                -- Cleared when a full resync starts, set again when the server lists the note.
                confirmed   INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX notes_by_recency ON notes (deleted, updated_at DESC, id);

            CREATE TABLE pending_changes (
                seq            INTEGER PRIMARY KEY AUTOINCREMENT,
                change_id      TEXT NOT NULL UNIQUE,
                note_id        TEXT NOT NULL REFERENCES notes (id),
                kind           TEXT NOT NULL CHECK (kind IN ('put', 'delete')),
                title          TEXT,
                body           TEXT,
                conflict_of    TEXT,
                -- Fixed when the change is handed to the engine; NULL for a never-confirmed note.
                base_version   INTEGER,
                in_flight      INTEGER NOT NULL DEFAULT 0,
                refused        INTEGER NOT NULL DEFAULT 0,
                refused_reason TEXT,
                created_at     REAL NOT NULL
            );
            CREATE INDEX pending_changes_by_note ON pending_changes (note_id, refused);

            CREATE TABLE sync_meta (
                key   TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            );

            CREATE TABLE sync_status (
                id                  INTEGER PRIMARY KEY CHECK (id = 1),
                last_synced_at      REAL,
                is_syncing          INTEGER NOT NULL DEFAULT 0,
                last_run_failed     INTEGER NOT NULL DEFAULT 0,
                last_error          TEXT,
                undecryptable_count INTEGER NOT NULL DEFAULT 0
            );
            INSERT INTO sync_status (id) VALUES (1);
            """)
    }

    // MARK: - 2: conflict lookups

    /// The list asks, for every row, whether a live conflict copy points at it: index that link.
    static func indexConflictCopies(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE INDEX notes_by_conflict_of ON notes (conflict_of) WHERE conflict_of IS NOT NULL;
            """)
    }

    // MARK: - 3: why the last run failed, and the engine's metrics

    /// The kind of the last failure (offline and signed out read from it) and the engine's
    /// counters as JSON (no note text).
    static func recordFailureKindAndMetrics(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE sync_status ADD COLUMN last_failure_kind TEXT;
            ALTER TABLE sync_status ADD COLUMN metrics TEXT;
            """)
    }

    // MARK: - 4: the sealed payload of a change in flight

    /// A change's payload as first sent. Sealing uses a fresh nonce, so sealing the same text again
    /// gives other bytes; a resend must carry the very same bytes, or the server rightly refuses the
    /// reused change id (422).
    static func freezeSealedPayloads(_ db: SQLiteConnection) throws {
        try db.execute("ALTER TABLE pending_changes ADD COLUMN payload TEXT")
    }

    // MARK: - 5: a covering index for the list

    /// The list reads titles and a preview from one index, in its order, without touching the
    /// table's rows (whose 2 KB bodies make a 10,000-note table 20 MB). `preview`, the start of
    /// the body, is kept by triggers on every insert and body change, so no write path can forget
    /// it. (A virtual generated column would not do: SQLite reads the row to compute it, so the
    /// index would not cover the list.)
    static func indexTheList(_ db: SQLiteConnection) throws {
        // The start of the text: leading blank lines and spaces skipped, as a list shows it.
        let preview =
            "substr(ltrim(NEW.body, ' ' || char(9) || char(10) || char(13)), 1, \(NoteSummary.previewLength))"
        try db.execute(
            """
            ALTER TABLE notes ADD COLUMN preview TEXT NOT NULL DEFAULT '';
            UPDATE notes SET preview = \(preview.replacingOccurrences(of: "NEW.", with: ""));
            CREATE TRIGGER notes_preview_on_insert AFTER INSERT ON notes BEGIN
                UPDATE notes SET preview = \(preview) WHERE id = NEW.id;
            END;
            CREATE TRIGGER notes_preview_on_update AFTER UPDATE OF body ON notes BEGIN
                UPDATE notes SET preview = \(preview) WHERE id = NEW.id;
            END;
            CREATE INDEX notes_list ON notes
                (deleted, updated_at DESC, id, title, preview, conflict_of, version);
            """)
    }

    // MARK: - 6: attempts per change, and what the engine has to tell the user

    /// Per-change attempts and backoff, so one change that keeps failing does not hold back the
    /// others; which device typed each note's text (so a conflict's sides are labelled by where
    /// they were typed, and "mine" means this device's); whether a note's text arrived from elsewhere (so `quire watch` never reports this
    /// device's own saves, made by another of its processes, as arrivals); a notice for what a run did that the user should know (a server that had lost
    /// notes). Also repairs a queue an older version could leave behind: a refused change with a
    /// later change of the same note queued behind it is superseded by that later change (its text
    /// was the device's own earlier text), so a note has at most one change not yet handed out.
    static func trackAttemptsAndNotices(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE pending_changes ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE pending_changes ADD COLUMN retry_at REAL;
            ALTER TABLE pending_changes ADD COLUMN last_error TEXT;
            ALTER TABLE sync_status ADD COLUMN notice TEXT;
            -- 1: the note's current text (or its delete) came from another device through a pull
            -- or a conflict settled for the server's copy; 0: it was written on this device.
            ALTER TABLE notes ADD COLUMN arrived INTEGER NOT NULL DEFAULT 0;
            -- The device that typed the note's current text, from its payload; NULL: this device.
            ALTER TABLE notes ADD COLUMN typed_on_id TEXT;
            ALTER TABLE notes ADD COLUMN typed_on_name TEXT;
            -- A newer server copy a pull skipped because the note had a pending change (JSON):
            -- applied when that change turns out to be answered with an older version.
            ALTER TABLE notes ADD COLUMN skipped_remote TEXT;
            DELETE FROM pending_changes
            WHERE refused = 1 AND EXISTS (
                SELECT 1 FROM pending_changes later
                WHERE later.note_id = pending_changes.note_id AND later.seq > pending_changes.seq);
            """)
    }

    // MARK: - 7: version tags

    /// The server's tag of the note's confirmed version, and the tag of a change's base: after a
    /// server restore one version number can name two texts, and only the tag tells them apart
    /// (see `NoteChangeDTO.versionTag`). NULL: no tag known (an older server, or never confirmed).
    ///
    /// `seen_versions` keeps the tagged versions this device confirmed for each note (the last 64
    /// numbers), filled by triggers so that no write path can forget it: a server copy this device
    /// once held is an ancestor of its text, one it never held may not be.
    static func tagVersions(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE notes ADD COLUMN version_tag TEXT;
            ALTER TABLE pending_changes ADD COLUMN base_tag TEXT;
            CREATE TABLE seen_versions (
                note_id TEXT NOT NULL,
                version INTEGER NOT NULL,
                tag     TEXT NOT NULL,
                PRIMARY KEY (note_id, version, tag)
            ) WITHOUT ROWID;
            CREATE TRIGGER notes_seen_on_insert AFTER INSERT ON notes
            WHEN NEW.version_tag IS NOT NULL BEGIN
                INSERT OR IGNORE INTO seen_versions (note_id, version, tag)
                VALUES (NEW.id, NEW.version, NEW.version_tag);
            END;
            CREATE TRIGGER notes_seen_on_update AFTER UPDATE OF version, version_tag ON notes
            WHEN NEW.version_tag IS NOT NULL BEGIN
                INSERT OR IGNORE INTO seen_versions (note_id, version, tag)
                VALUES (NEW.id, NEW.version, NEW.version_tag);
                DELETE FROM seen_versions WHERE note_id = NEW.id AND version < NEW.version - 64;
            END;
            """)
    }

    // MARK: - 8: full-text search

    /// An FTS5 index of every note's title and body (`quire search`), case and diacritics folded
    /// (`unicode61 remove_diacritics 2`: "cafe" finds "café"). It is an external-content index over
    /// `notes`, keyed by the table's rowid, kept by triggers: every write path that changes a note
    /// (a save, a delete, an applied pull, a settled conflict, a purge) updates it in its own
    /// transaction, and none can forget to. Tombstones stay indexed and are filtered by the query.
    /// The rowid is the key: nothing may rewrite `notes` with `REPLACE` or renumber it with
    /// `VACUUM` without then running `INSERT INTO notes_search(notes_search) VALUES ('rebuild')`.
    /// Notes saved before this migration are indexed by its rebuild.
    static func indexForSearch(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE VIRTUAL TABLE notes_search USING fts5(
                title, body, content = 'notes', content_rowid = 'rowid',
                tokenize = 'unicode61 remove_diacritics 2');
            CREATE TRIGGER notes_search_on_insert AFTER INSERT ON notes BEGIN
                INSERT INTO notes_search (rowid, title, body) VALUES (NEW.rowid, NEW.title, NEW.body);
            END;
            CREATE TRIGGER notes_search_on_delete AFTER DELETE ON notes BEGIN
                INSERT INTO notes_search (notes_search, rowid, title, body)
                VALUES ('delete', OLD.rowid, OLD.title, OLD.body);
            END;
            CREATE TRIGGER notes_search_on_update AFTER UPDATE OF title, body ON notes BEGIN
                INSERT INTO notes_search (notes_search, rowid, title, body)
                VALUES ('delete', OLD.rowid, OLD.title, OLD.body);
                INSERT INTO notes_search (rowid, title, body) VALUES (NEW.rowid, NEW.title, NEW.body);
            END;
            INSERT INTO notes_search (notes_search) VALUES ('rebuild');
            """)
    }

    // MARK: - 9: when each note was created

    /// When each note was created on this device, or first arrived here from another (the payload
    /// does not carry a creation time), for `quire ls --sort created`. Set by a trigger on insert,
    /// so no write path can forget it; notes from before this migration take their last update.
    static func recordCreationTimes(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE notes ADD COLUMN created_at REAL;
            UPDATE notes SET created_at = updated_at;
            CREATE TRIGGER notes_created_on_insert AFTER INSERT ON notes WHEN NEW.created_at IS NULL BEGIN
                UPDATE notes SET created_at = NEW.updated_at WHERE id = NEW.id;
            END;
            """)
    }

    // MARK: - 10: seen versions under an upsert

    /// The triggers of migration 7 said `INSERT OR IGNORE`, but an outer statement's conflict
    /// handling overrides a trigger's: under the upsert that stores a server copy, a version and
    /// tag seen before (a note listed again at a version it had before a restore) failed the
    /// whole page with a UNIQUE constraint (10-device seed 34). An upsert clause of the trigger's
    /// own statement is not overridden.
    static func keepSeenVersionsUnderUpserts(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            DROP TRIGGER notes_seen_on_insert;
            DROP TRIGGER notes_seen_on_update;
            CREATE TRIGGER notes_seen_on_insert AFTER INSERT ON notes
            WHEN NEW.version_tag IS NOT NULL BEGIN
                INSERT INTO seen_versions (note_id, version, tag)
                VALUES (NEW.id, NEW.version, NEW.version_tag) ON CONFLICT DO NOTHING;
            END;
            CREATE TRIGGER notes_seen_on_update AFTER UPDATE OF version, version_tag ON notes
            WHEN NEW.version_tag IS NOT NULL BEGIN
                INSERT INTO seen_versions (note_id, version, tag)
                VALUES (NEW.id, NEW.version, NEW.version_tag) ON CONFLICT DO NOTHING;
                DELETE FROM seen_versions WHERE note_id = NEW.id AND version < NEW.version - 64;
            END;
            """)
    }
}
