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
        // The best `limit` live hits are ranked first, by rowid alone; only those get a
        // highlighted title and a snippet (computing them for every hit of a common word, over
        // a thousand at 10,000 notes, was most of the time).
        return try connection.query(
            """
            SELECT n.id, highlight(notes_search, 0, ?1, ?2), snippet(notes_search, 1, ?1, ?2, '…', 12),
                   n.conflict_of, n.updated_at, best.rank, n.title
            FROM (
                SELECT notes_search.rowid AS rowid, bm25(notes_search, 10.0, 1.0) AS rank,
                       m.updated_at AS updated_at
                FROM notes_search JOIN notes m ON m.rowid = notes_search.rowid
                WHERE notes_search MATCH ?3 AND m.deleted = 0
                ORDER BY rank, m.updated_at DESC
                LIMIT ?4
            ) AS best
            JOIN notes_search ON notes_search.rowid = best.rowid
            JOIN notes n ON n.rowid = best.rowid
            WHERE notes_search MATCH ?3
            ORDER BY best.rank, best.updated_at DESC
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
