import QuireDomain
import QuireSQLite

/// The one reader and the writers' SQL of a note row's merge base (client migration 15): the
/// base is kept in `base_title` and `base_body` only where it differs from the row's text, and
/// `base_is_text = 1` says it is the text. Nothing else reads or writes those columns, so a NULL
/// base column is never taken for an empty base.
enum NoteBaseColumns {
    /// The columns ``base(_:from:text:)`` reads, in its order.
    static let select = "base_is_text, base_title, base_body"

    /// The row's base, from the columns of ``select`` starting at `index`; `text` is the row's
    /// own title and body. Nil when the note has no base (never confirmed, or a tombstone).
    static func base(_ row: SQLiteRow, from index: Int, text: NoteText) -> NoteText? {
        if row.bool(index) { return text }
        guard !row.isNull(index + 1) else { return nil }
        return NoteText(title: row.text(index + 1), body: row.text(index + 2))
    }

    /// An `UPDATE … SET` fragment that makes the SQL expressions `title` and `body` (NULL: no
    /// base) the base, for a statement that leaves the text as it is: stored as "the text" when
    /// they equal it, as itself otherwise.
    static func assign(title: String, body: String) -> String {
        let same = "(title IS \(title) AND body IS \(body))"
        return """
            base_is_text = \(same), base_title = CASE WHEN \(same) THEN NULL ELSE \(title) END,
                base_body = CASE WHEN \(same) THEN NULL ELSE \(body) END
            """
    }

    /// The fragment for a statement that writes a new text and makes that text the base (a
    /// pulled copy, a restored server state); `isText` is an SQL expression, false (0) when
    /// there is no base.
    static func assignText(when isText: String = "1") -> String {
        "base_is_text = \(isText), base_title = NULL, base_body = NULL"
    }

    /// The fragment for a note left with no base (a tombstone, a forgotten version).
    static let assignNone = assignText(when: "0")
}
