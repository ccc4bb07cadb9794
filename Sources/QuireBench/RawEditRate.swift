import Foundation
import QuireWire

/// The disk's own ceiling for edits, beside ``RawCommitRate``'s for new rows: bare SQLite C calls
/// into a fresh file opened as the server opens its own (WAL, `synchronous=FULL`, a 64 MiB cache),
/// `notes` note-sized rows under time-ordered keys stored first, then edits of them in random
/// order, `editsPerCommit` a transaction. An edit does the least a server that keeps history
/// must: the row's text goes to a history table under `(id, version)` and the new text takes its
/// place. No feed, no idempotency record, no counters: what the server adds shows in the ratio.
enum RawEditRate {
    static func editsPerSecond(
        directory: URL, payload: String, notes: Int, editsPerCommit: Int, seconds: Double
    ) throws -> Double {
        let file = directory.appendingPathComponent("raw-edits-\(editsPerCommit).sqlite")
        try? FileManager.default.removeItem(at: file)
        let raw = try RawSQLite(path: file.path, pragmas: RawSQLite.savePragmas + "; PRAGMA cache_size=-65536")
        try raw.execute(
            """
            CREATE TABLE notes (id TEXT PRIMARY KEY, version INTEGER NOT NULL, payload TEXT NOT NULL);
            CREATE TABLE versions (
                id TEXT NOT NULL, version INTEGER NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (id, version));
            """)
        var ids: [String] = []
        try raw.execute("BEGIN IMMEDIATE")
        for _ in 0..<notes {
            let id = UUID.timeOrdered().uuidString.lowercased()
            try raw.run("INSERT INTO notes (id, version, payload) VALUES (?, 1, ?)", [.text(id), .text(payload)])
            ids.append(id)
        }
        try raw.execute("COMMIT")
        ids.shuffle()
        let started = Date()
        var edits = 0
        repeat {
            try raw.execute("BEGIN IMMEDIATE")
            for _ in 0..<editsPerCommit {
                let id = RawSQLite.RawValue.text(ids[edits % ids.count])
                try raw.run("INSERT INTO versions SELECT id, version, payload FROM notes WHERE id = ?", [id])
                try raw.run("UPDATE notes SET version = version + 1, payload = ? WHERE id = ?", [.text(payload), id])
                edits += 1
            }
            try raw.execute("COMMIT")
        } while Date().timeIntervalSince(started) < seconds
        return Double(edits) / Date().timeIntervalSince(started)
    }
}
