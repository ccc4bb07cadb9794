import Foundation
import QuireClient
import QuireDomain
import QuireSQLite

/// Builds the device databases the local-store benchmarks start from: the client's real schema,
/// filled with corpus notes, each with its pending change (as after typing them offline).
enum LocalStoreFixture {
    /// A device database at `file` holding `count` notes, saved through `NotesDatabase.saveNote`
    /// (with `synchronous=NORMAL` to fill it quickly; the benchmarks reopen it with FULL).
    static func deviceDatabase(at file: URL, count: Int, corpus: NoteCorpus) async throws {
        let database = try NotesDatabase(fileURL: file, now: Date.init, durability: .normal)
        for index in 0..<count {
            let note = corpus.note(index)
            try await database.saveNote(id: NoteID(), title: note.title, body: note.body)
        }
    }

    /// An empty file with the client's schema, then filled with `count` notes and pending changes
    /// by raw inserts in one transaction: the raw baseline's starting point, same shape.
    static func rawDatabase(at file: URL, count: Int, corpus: NoteCorpus) throws -> RawSQLite {
        do {
            let connection = try SQLiteConnection(
                path: file.path, durability: .full, pageSize: NotesSchema.pageSize)
            try SQLiteMigrator(NotesSchema.migrations).migrate(connection)
        }
        let raw = try RawSQLite(path: file.path)
        try raw.execute("BEGIN IMMEDIATE")
        for index in 0..<count {
            let note = corpus.note(index)
            try insertSave(raw, id: UUID().uuidString.lowercased(), title: note.title, body: note.body)
        }
        try raw.execute("COMMIT")
        return raw
    }

    /// The two inserts of a save of a new note, as `saveNote` makes them, without a transaction.
    static func insertSave(_ raw: RawSQLite, id: String, title: String, body: String) throws {
        let now = Date().timeIntervalSinceReferenceDate
        try raw.run(
            "INSERT INTO notes (id, title, body, updated_at, revision, title_key) VALUES (?, ?, ?, ?, 1, ?)",
            [.text(id), .text(title), .text(body), .real(now), .blob(TitleSortKey.make(title))])
        try raw.run(
            """
            INSERT INTO pending_changes (change_id, note_id, kind, title, body, conflict_of, created_at)
            VALUES (?, ?, 'put', ?, ?, ?, ?)
            """,
            [.text(UUID().uuidString.lowercased()), .text(id), .text(title), .text(body), .null, .real(now)])
    }
}
