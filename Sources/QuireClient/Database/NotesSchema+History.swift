import Foundation
import QuireSQLite

extension NotesSchema {
    /// How many earlier texts of each note this device keeps.
    package static let textsKeptPerNote = 32

    // MARK: - 12: when each note went

    /// `deleted_at`: when the note was deleted, for the trash (`updated_at` is the last edit's
    /// time, and the history keeps each text at the time it was saved). Set with the tombstone:
    /// this device's clock for a delete typed here, the server's time of the delete for one
    /// pulled. A tombstone from before it takes its unsent delete's time, else its last edit's.
    static func recordDeleteTimes(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE notes ADD COLUMN deleted_at REAL;
            UPDATE notes SET deleted_at = COALESCE(
                (SELECT MAX(p.created_at) FROM pending_changes p WHERE p.note_id = notes.id AND p.kind = 'delete'),
                updated_at)
            WHERE deleted = 1;
            """)
    }

    // MARK: - 11: this device's history

    /// Each text a note row held before it changed or went (a save over it, a pulled copy, a
    /// settled conflict, a tombstone that blanked it, a row forgotten after a listing), kept by
    /// triggers so no write path can forget it: history offline, and the texts that never
    /// reached the server (a refused change, an edit superseded before it was sent). `version`
    /// is the server's number when the text was that confirmed version (it equals the row's
    /// base), NULL otherwise. The newest ``textsKeptPerNote`` per note stay.
    static func keepEarlierTexts(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE note_history (
                seq           INTEGER PRIMARY KEY AUTOINCREMENT,
                note_id       TEXT NOT NULL,
                title         TEXT NOT NULL,
                body          TEXT NOT NULL,
                saved_at      REAL NOT NULL,
                version       INTEGER,
                typed_on_id   TEXT,
                typed_on_name TEXT
            );
            CREATE INDEX note_history_by_note ON note_history (note_id, seq);
            \(historyTriggers(confirmedWhen: oldBaseIsText))
            """)
    }

    /// Migration 11's test of whether the row's text was its confirmed version: the base columns
    /// hold the same text (client migration 15 adds `base_is_text`).
    static let oldBaseIsText = "OLD.base_title IS OLD.title AND OLD.base_body IS OLD.body"

    /// The history's triggers, `confirmedWhen` saying (of `OLD`) whether the text that goes was
    /// the confirmed version's: then its history row carries that version's number.
    static func historyTriggers(confirmedWhen confirmed: String) -> String {
        let keep = textsKeptPerNote
        let prune = """
            DELETE FROM note_history WHERE note_id = OLD.id AND seq <= (
                SELECT seq FROM note_history WHERE note_id = OLD.id ORDER BY seq DESC LIMIT 1 OFFSET \(keep));
            """
        let insert = """
            INSERT INTO note_history (note_id, title, body, saved_at, version, typed_on_id, typed_on_name)
            VALUES (OLD.id, OLD.title, OLD.body, OLD.updated_at,
                CASE WHEN OLD.version > 0 AND (\(confirmed))
                    THEN OLD.version END,
                OLD.typed_on_id, OLD.typed_on_name);
            """
        return """
            CREATE TRIGGER notes_history_on_update AFTER UPDATE OF title, body ON notes
            WHEN (OLD.title IS NOT NEW.title OR OLD.body IS NOT NEW.body) AND (OLD.title <> '' OR OLD.body <> '')
            BEGIN
                \(insert)
                \(prune)
            END;
            CREATE TRIGGER notes_history_on_delete AFTER DELETE ON notes
            WHEN OLD.title <> '' OR OLD.body <> ''
            BEGIN
                \(insert)
                \(prune)
            END;
            """
    }
}
