import Foundation

/// The marks of replaced note versions (`note_marks`), written once for both stores (see
/// ``HistoryDatabase``): what lets a 409 say whether the write's base is a version of this
/// server's history (``BaseVersion/isKnown(against:kept:oldestKept:)``). Every function runs
/// inside the caller's transaction.
enum NoteMarkQueries {
    /// Keeps the mark of `replaced`, the state a write is replacing, dated when that state was
    /// written (the marks' retention counts from then). A new note writes none: its mark is on its
    /// row until a write or a purge replaces it.
    static func keepMark(of replaced: StoredNote, account: AccountID, db: some HistoryDatabase) throws {
        guard replaced.mark > 0 else { return }
        try db.historyRun(
            """
            INSERT INTO note_marks (account_id, note_id, version, mark, created_at)
            VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING
            """,
            [
                .int(account.rawValue), .text(replaced.id), .int(Int64(replaced.version)), .int(replaced.mark),
                .int(replaced.updatedAt.storedMilliseconds),
            ])
    }

    /// Whether `base`, which does not name `current`, is a version this history wrote.
    static func knows(_ base: BaseVersion, of current: StoredNote, account: AccountID, db: some HistoryDatabase)
        throws -> Bool?
    {
        let note: [HistoryValue] = [.int(account.rawValue), .text(current.id)]
        return try base.isKnown(
            against: current,
            kept: { version, tag in
                try !db.historyRows(
                    """
                    SELECT 1 FROM note_marks
                    WHERE account_id = $1 AND note_id = $2 AND version = $3 AND mark = $4
                    """, note + [.int(Int64(version)), .int(tag)], map: { _ in true }
                ).isEmpty
            },
            oldestKept: {
                try db.historyRows(
                    "SELECT MIN(version) FROM note_marks WHERE account_id = $1 AND note_id = $2", note,
                    map: { try $0.optionalInt64At(0) }
                ).first.flatMap { $0 }.map { Int($0) }
            })
    }
}
