import Foundation
import QuireDomain
import QuireSQLite

// MARK: - The whole list in another order, a page at a time

extension NotesDatabase {
    /// Up to `limit` live notes as summary rows right after `position` in `sort`'s order, from the
    /// start when nil. Reads only those rows, by the order's index, entered at `position` instead
    /// of scanned from the start. The position's own values say where it is (its title's key is
    /// computed again), except a creation time, looked up by id: never changed, kept by a
    /// tombstone, so a row changed or deleted meanwhile does not end the walk.
    /// - Throws: `SQLiteError` when the database cannot be read or written.
    public func noteSummaryRows(sortedBy sort: NoteListSort, after position: NoteListPosition?, limit: Int)
        throws -> [NoteRecord]
    {
        if sort == .title { try fillTitleKeys() }
        let query = Self.sortedPageQuery(sort, afterALastRow: position != nil)
        guard let position else { return try connection.query(query, bindings: [limit], map: Self.noteRecord) }
        var createdAt = 0.0
        if sort == .created {
            let found = try connection.queryFirst(
                "SELECT created_at FROM notes WHERE id = ?", position.id.description
            ) { $0.optionalDouble(0) }
            guard let found, let found else { return [] }  // Purged meanwhile: nothing to walk from.
            createdAt = found
        }
        let bindings: [SQLiteBindable] = [
            position.updatedAt.timeIntervalSinceReferenceDate, createdAt,
            Data(TitleSortKey.make(position.title)), position.id.description, limit,
        ]
        return try connection.query(query, bindings: bindings, map: Self.noteRecord)
    }

    /// The page query of `sort`: with `afterALastRow`, it binds the last row's `updated_at`,
    /// `created_at`, `title_key` and id (?1 to ?4), then the limit (?5); without, the limit (?1).
    static func sortedPageQuery(_ sort: NoteListSort, afterALastRow: Bool) -> String {
        let order: String
        let after: String
        switch sort {
        case .updated:
            order = listOrder
            after = " AND n.updated_at <= ?1 AND (n.updated_at < ?1 OR n.id > ?4)"
        case .created:
            order = " ORDER BY n.created_at DESC, n.id"
            after = " AND n.created_at <= ?2 AND (n.created_at < ?2 OR n.id > ?4)"
        case .title:
            order = " ORDER BY n.title_key, n.updated_at DESC, n.id"
            after =
                " AND n.title_key >= ?3 AND (n.title_key > ?3 OR n.updated_at < ?1"
                + " OR (n.updated_at = ?1 AND n.id > ?4))"
        }
        let select = noteRowsSelect(body: "n.preview") + " WHERE n.deleted = 0"
        return afterALastRow ? select + after + order + " LIMIT ?5" : select + order + " LIMIT ?1"
    }

    /// Computes the title key of every live note whose title changed since it was last computed
    /// (or that never had one), in one transaction. Finds them at the start of `notes_by_title`
    /// (NULL sorts first), so when none is missing it reads nothing.
    func fillTitleKeys() throws {
        let missing = try connection.query(
            "SELECT id, title FROM notes WHERE deleted = 0 AND title_key IS NULL"
        ) { ($0.text(0), $0.text(1)) }
        guard !missing.isEmpty else { return }
        try connection.transaction {
            for (id, title) in missing {
                _ = try connection.run(
                    "UPDATE notes SET title_key = ? WHERE id = ?", Data(TitleSortKey.make(title)), id)
            }
        }
    }
}
