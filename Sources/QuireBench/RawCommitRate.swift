import Foundation
import QuireWire

/// The disk's own ceiling for the server's writes: how many rows a second bare SQLite C calls
/// commit into a fresh file opened as the server opens its own (WAL, `synchronous=FULL`), each
/// row a note-sized payload under a fresh primary key, `rowsPerCommit` rows a transaction. The
/// keys are made as devices make note ids (time-ordered, ``Foundation/UUID/timeOrdered(madeAt:)``),
/// so the baseline writes its index where the server writes its notes' key.
enum RawCommitRate {
    static func rowsPerSecond(directory: URL, payload: String, rowsPerCommit: Int, seconds: Double) throws -> Double {
        let file = directory.appendingPathComponent("raw-commits-\(rowsPerCommit).sqlite")
        try? FileManager.default.removeItem(at: file)
        let raw = try RawSQLite(path: file.path)
        try raw.execute("CREATE TABLE notes (id TEXT PRIMARY KEY, payload TEXT NOT NULL)")
        let started = Date()
        var rows = 0
        repeat {
            try raw.execute("BEGIN IMMEDIATE")
            for _ in 0..<rowsPerCommit {
                let key = UUID.timeOrdered().uuidString.lowercased()
                try raw.run("INSERT INTO notes (id, payload) VALUES (?, ?)", [.text(key), .text(payload)])
                rows += 1
            }
            try raw.execute("COMMIT")
        } while Date().timeIntervalSince(started) < seconds
        return Double(rows) / Date().timeIntervalSince(started)
    }
}
