import Foundation
import QuireDomain
import QuireSQLite

/// Makes a server file's one account hold `total` notes by copying the notes it has, each copy
/// a new note id with its template's row and every stored version of it (same payloads, times
/// and version numbers), inserted with the real schema in one transaction. The history-storage
/// benchmark writes a subset through the store's write path and widens it to the size
/// for the last night, so the last pruning pass and the account cap meet the full account.
enum HistoryWidening {
    /// Widens the closed store at `path`; returns how many notes were added. Throws `SQLiteError`.
    static func widen(path: String, to total: Int) throws -> Int {
        let db = try SQLiteConnection(path: path, durability: .full)
        let templates = try db.query("SELECT account_id, note_id FROM notes ORDER BY note_id") {
            (account: $0.int64(0), note: $0.text(1))
        }
        guard !templates.isEmpty, templates.count < total else { return 0 }
        return try db.transaction {
            var seq = try db.queryFirst("SELECT value FROM meta WHERE key = 'seq'") { $0.int(0) } ?? 0
            for index in templates.count..<total {
                let template = templates[index % templates.count]
                let id = NoteID().description
                seq += 1
                _ = try db.run(
                    """
                    INSERT INTO notes
                        (account_id, note_id, version, deleted, payload, updated_at, seq, written_by, mark,
                        payload_bytes)
                    SELECT account_id, ?, version, deleted, payload, updated_at, ?, written_by, mark, payload_bytes
                    FROM notes WHERE account_id = ? AND note_id = ?
                    """, id, seq, template.account, template.note)
                _ = try db.run(
                    """
                    INSERT INTO note_versions
                        (account_id, note_id, version, payload, saved_at, replaced_at, written_by, mark)
                    SELECT account_id, ?, version, payload, saved_at, replaced_at, written_by, mark
                    FROM note_versions WHERE account_id = ? AND note_id = ?
                    """, id, template.account, template.note)
            }
            _ = try db.run("UPDATE meta SET value = ? WHERE key = 'seq'", seq)
            return total - templates.count
        }
    }
}
