import Foundation

/// The floor under a first sync's storing: the least any device must write to keep the notes it
/// pulls with the list and the search the issue asks for, made with bare SQLite C calls and
/// nothing else, in a child process: `quire-bench __store-floor DIR NOTES PAGE search|rows`.
///
/// The same notes the benchmark's server holds (``NoteCorpus``, by index), already decoded and
/// opened, go into a fresh file in pages of PAGE, each page one transaction as a pull stores it:
/// a row keyed by the note's id, the list's index, and with `search` the FTS5 index (the notes'
/// tokenizer, external content) filled by one statement per page before it commits; `rows` leaves
/// the search index out, so its share shows. The file takes the settings a first sync runs with
/// (8 KiB pages, WAL, `synchronous=NORMAL`, bulk mode's checkpoint limit and cache), and a
/// passive checkpoint ends the run, as it ends bulk mode.
///
/// Timed from creating the file to the end of the checkpoint; the notes are made before. Prints
/// one JSON line: ``Report``. Exits 1 (with a message on standard error) when it cannot.
enum StoreFloorChild {
    static let subcommand = "__store-floor"

    struct Report: Codable {
        var seconds: Double
        /// The CPU time of the storing alone (user and system).
        var cpuSeconds: Double
    }

    static func main(_ arguments: [String]) -> Int32 {
        guard arguments.count == 4, let count = Int(arguments[1]), let page = Int(arguments[2]), page > 0,
            ["search", "rows"].contains(arguments[3])
        else {
            FileHandle.standardError.write(Data("usage: \(subcommand) DIR NOTES PAGE search|rows\n".utf8))
            return 64
        }
        do {
            let corpus = try NoteCorpus.load()
            let notes = (0..<count).map { index in
                let text = corpus.note(index)
                return (id: UUID().uuidString.lowercased(), title: text.title, body: text.body)
            }
            let file = URL(fileURLWithPath: arguments[0]).appendingPathComponent("floor.sqlite")
            let clock = ContinuousClock()
            let start = clock.now
            let ((), cpu) = try ProcessCPU.measure {
                try store(notes, in: file.path, page: page, search: arguments[3] == "search")
            }
            let report = Report(seconds: (clock.now - start).seconds, cpuSeconds: cpu)
            FileHandle.standardOutput.write(try JSONEncoder().encode(report) + Data("\n".utf8))
            return 0
        } catch {
            FileHandle.standardError.write(Data("\(subcommand): \(error)\n".utf8))
            return 1
        }
    }

    private static func store(
        _ notes: [(id: String, title: String, body: String)], in path: String, page: Int, search: Bool
    ) throws {
        let raw = try RawSQLite(
            path: path,
            pragmas: "PRAGMA page_size=8192; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                + "PRAGMA wal_autocheckpoint=8192; PRAGMA cache_size=-16384")
        try raw.execute(
            """
            CREATE TABLE notes (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL,
                updated_at REAL NOT NULL, version INTEGER NOT NULL, version_tag TEXT,
                deleted INTEGER NOT NULL DEFAULT 0);
            CREATE INDEX notes_list ON notes (deleted, updated_at DESC, id);
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
            """)
        if search {
            try raw.execute(
                """
                CREATE VIRTUAL TABLE notes_search USING fts5(title, body, content = 'notes',
                    content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2');
                """)
        }
        let now = Date().timeIntervalSinceReferenceDate
        for first in stride(from: 0, to: notes.count, by: page) {
            try raw.execute("BEGIN IMMEDIATE")
            for (offset, note) in notes[first..<min(first + page, notes.count)].enumerated() {
                try raw.run(
                    "INSERT INTO notes (id, title, body, updated_at, version, version_tag) VALUES (?, ?, ?, ?, 1, ?)",
                    [
                        .text(note.id), .text(note.title), .text(note.body), .real(now + Double(first + offset)),
                        .text("t\(first + offset)"),
                    ])
            }
            if search {
                // A fresh table numbers its rows 1, 2, …: the page's are those above the ones before it.
                try raw.run(
                    "INSERT INTO notes_search (rowid, title, body) SELECT rowid, title, body FROM notes WHERE rowid > ?",
                    [.integer(Int64(first))])
            }
            try raw.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('cursor', ?)", [.text("page \(first)")])
            try raw.execute("COMMIT")
        }
        try raw.execute("PRAGMA wal_checkpoint(PASSIVE)")
    }
}
