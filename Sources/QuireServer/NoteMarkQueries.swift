import Foundation

/// The marks of replaced note versions, written once for both stores (see ``HistoryDatabase``):
/// what lets a 409 say whether the write's base is a version of this server's history
/// (``BaseVersion/isKnown(against:kept:oldestKept:)``). Every function runs inside the caller's
/// transaction.
///
/// Where a mark is kept:
/// - the current state's on its `notes` row;
/// - a replaced live state's in the history's row of its text (`note_versions`), written by the
///   same statement that keeps the text, so an edit writes no page for its mark (issue 13, 6);
/// - a replaced tombstone's, and that of every version the history lets go (pruned, capped, or
///   purged with its tombstone), in `note_marks`, dated when the version was written.
///
/// Marks are kept from a horizon on (``horizonKey`` in `meta`): the retention raises it to its
/// limit as it deletes the older marks in `note_marks`, and the history's older texts keep their
/// marks for the history's own use but no longer count here. So the marks that count always run
/// without a gap from the oldest to the current one.
enum NoteMarkQueries {
    /// The `meta` key of the marks' horizon: the time (milliseconds) from which versions' marks
    /// are kept. Absent: every mark ever written is.
    static let horizonKey = "note_marks_kept_from"

    /// Keeps the mark of `replaced`, the state a write is replacing, when it is a tombstone (the
    /// history keeps a live state's mark with its text, see
    /// ``NoteHistoryQueries/archiveCurrent(_:account:now:db:)``). Dated when that state was
    /// written. A new note writes none: its mark is on its row.
    static func keepMark(of replaced: StoredNote, account: AccountID, db: some HistoryDatabase) throws {
        guard replaced.mark > 0, replaced.deleted || replaced.payload == nil else { return }
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

    /// Keeps in `note_marks` the marks of the history's versions that `condition` (over
    /// `note_versions`, with `values` as its parameters) selects, before the caller deletes them.
    static func keepMarks(ofVersionsWhere condition: String, _ values: [HistoryValue], db: some HistoryDatabase)
        throws
    {
        try db.historyRun(
            """
            INSERT INTO note_marks (account_id, note_id, version, mark, created_at)
            SELECT account_id, note_id, version, mark, saved_at FROM note_versions WHERE (\(condition)) AND mark > 0
            ON CONFLICT DO NOTHING
            """, values)
    }

    /// Raises the marks' horizon to `limit` (milliseconds); never lowers it.
    static func raiseHorizon(to limit: HistoryValue, db: some HistoryDatabase) throws {
        try db.historyRun(
            """
            INSERT INTO meta (key, value) VALUES ('\(horizonKey)', $1)
            ON CONFLICT (key) DO UPDATE SET value = CASE WHEN excluded.value > meta.value
                THEN excluded.value ELSE meta.value END
            """, [limit])
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
                    SELECT 1 FROM note_marks WHERE account_id = $1 AND note_id = $2 AND version = $3 AND mark = $4
                        AND \(counted("note_marks.created_at"))
                    UNION ALL
                    SELECT 1 FROM note_versions WHERE account_id = $1 AND note_id = $2 AND version = $3 AND mark = $4
                        AND \(counted("note_versions.saved_at"))
                    """, note + [.int(Int64(version)), .int(tag)], map: { _ in true }
                ).isEmpty
            },
            oldestKept: {
                try db.historyRows(
                    """
                    SELECT MIN(version) FROM (
                        SELECT version FROM note_marks WHERE account_id = $1 AND note_id = $2
                            AND \(counted("note_marks.created_at"))
                        UNION ALL
                        SELECT version FROM note_versions WHERE account_id = $1 AND note_id = $2 AND mark > 0
                            AND \(counted("note_versions.saved_at"))
                    ) AS kept
                    """, note,
                    map: { try $0.optionalInt64At(0) }
                ).first.flatMap { $0 }.map { Int($0) }
            })
    }

    /// The condition that a mark written at `column` (milliseconds) is at or past the horizon,
    /// read in the same statement as the marks (one snapshot on PostgreSQL).
    private static func counted(_ column: String) -> String {
        "NOT EXISTS (SELECT 1 FROM meta WHERE key = '\(horizonKey)' AND value > \(column))"
    }

    /// Migration: sets the horizon of a store whose `note_marks` held every replaced version's
    /// mark (before the history kept them) to where those marks start, so the history's older
    /// texts, whose marks the retention may have pruned, add no gap. An empty store gets none.
    static func startHorizon(db: some HistoryDatabase) throws {
        try db.historyRun(
            """
            INSERT INTO meta (key, value)
            SELECT '\(horizonKey)', COALESCE(
                (SELECT MIN(created_at) FROM note_marks), (SELECT MAX(updated_at) FROM notes))
            WHERE EXISTS (SELECT 1 FROM notes)
            ON CONFLICT (key) DO NOTHING
            """, [])
    }
}
