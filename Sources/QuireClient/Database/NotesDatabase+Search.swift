import Foundation
import QuireDomain
import QuireSQLite

// MARK: - Full-text search (FTS5, migration 8)

extension NotesDatabase {
    /// The live notes matching every word of `query` (each word also matches as a prefix:
    /// "groc" finds "Groceries"), best first by bm25 with the title weighing ten times the body.
    /// Case and diacritics fold ("cafe" finds "Café"). Tombstones never match; conflict copies do,
    /// with ``NoteSearchHit/conflictOf`` set.
    ///
    /// The index is kept by triggers on `notes`, so it changes in the same transaction as every
    /// save, delete, applied pull and settled conflict. Reads only; the text is the device's own.
    /// - Parameters:
    ///   - query: words as a person types them; search syntax (quotes, `AND`, `*`, `-`) is taken
    ///     literally. No words: no hits.
    ///   - highlight: the marks put around each matching word in the title and the snippet.
    /// - Throws: `SQLiteError` when the database cannot be read.
    public func search(_ query: String, limit: Int = 50, highlight: (String, String) = ("", "")) throws
        -> [NoteSearchHit]
    {
        guard let match = Self.matchExpression(for: query) else { return [] }
        return try connection.query(
            """
            SELECT n.id, highlight(notes_search, 0, ?1, ?2), snippet(notes_search, 1, ?1, ?2, '…', 12),
                   n.conflict_of, n.updated_at, bm25(notes_search, 10.0, 1.0) AS rank, n.title
            FROM notes_search JOIN notes n ON n.rowid = notes_search.rowid
            WHERE notes_search MATCH ?3 AND n.deleted = 0
            ORDER BY rank, n.updated_at DESC
            LIMIT ?4
            """, bindings: [highlight.0, highlight.1, match, limit]
        ) { row in
            guard let id = NoteID(row.text(0)) else {
                throw SQLiteError(code: 0, message: "malformed note id \(row.text(0))", sql: nil)
            }
            return NoteSearchHit(
                id: id, title: row.text(6), highlightedTitle: row.text(1), snippet: row.text(2),
                conflictOf: row.optionalText(3).flatMap(NoteID.init),
                updatedAt: Date(timeIntervalSinceReferenceDate: row.double(4)), rank: row.double(5))
        }
    }

    /// An FTS5 query for the words of `query`: each word a quoted string (so nothing in it is
    /// syntax) matched as a prefix, all of them required. nil when there are no words.
    static func matchExpression(for query: String) -> String? {
        let words = query.split(whereSeparator: { $0.isWhitespace }).map { word in
            "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\"*"
        }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
