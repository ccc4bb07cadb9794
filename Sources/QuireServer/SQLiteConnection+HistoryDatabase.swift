import Foundation
import QuireSQLite

/// The SQLite store's connection and rows, as ``NoteHistoryQueries`` uses them.
extension SQLiteConnection: HistoryDatabase {
    func historyRun(_ sql: String, _ values: [HistoryValue]) throws -> Int {
        try run(Self.numberedParameters(sql), bindings: values.map(Self.bindable))
    }

    func historyRows<T>(_ sql: String, _ values: [HistoryValue], map: (any HistoryRow) throws -> T) throws -> [T] {
        try query(Self.numberedParameters(sql), bindings: values.map(Self.bindable)) { try map($0) }
    }

    /// `$1` as `?1`: SQLite takes `$1` for a name, numbered by its first appearance, but binds
    /// `?1` to the first value wherever it stands, as PostgreSQL binds `$1`.
    /// The history's statements hold no `$` but their placeholders.
    ///
    /// Byte by byte: every edit runs several of these statements on the writer's thread, and
    /// Foundation's `replacingOccurrences` (through NSString on Linux) took 12% of the server's
    /// samples under a load of edits (docs/benchmarks.md, "Part 6, eleventh pass").
    static func numberedParameters(_ sql: String) -> String {
        var bytes = Array(sql.utf8)
        for index in bytes.indices where bytes[index] == UInt8(ascii: "$") { bytes[index] = UInt8(ascii: "?") }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func bindable(_ value: HistoryValue) -> any SQLiteBindable {
        switch value {
        case .int(let number): number
        case .text(let text): text
        case .bool(let flag): flag
        case .bytes(let data): data
        case .null: SQLiteValue.null
        }
    }
}

extension SQLiteRow: HistoryRow {
    func int64At(_ column: Int) -> Int64 { int64(column) }
    func optionalInt64At(_ column: Int) -> Int64? { isNull(column) ? nil : int64(column) }
    func textAt(_ column: Int) -> String { text(column) }
    func optionalTextAt(_ column: Int) -> String? { optionalText(column) }
    func boolAt(_ column: Int) -> Bool { bool(column) }
    func bytesAt(_ column: Int) -> Data { blob(column) }
}

/// The SQLite store's sequence, as ``TripQueries`` (and the store's own writes) use it.
extension SQLiteConnection: TripDatabase {
    /// Empty: the store's one connection runs its transactions one at a time.
    var rowLock: String { "" }

    /// Bumps the server-wide change counter inside the caller's transaction and stores a fresh
    /// random mark with the new number; returns both.
    ///
    /// `OR REPLACE`: in one history a number is handed out once, so a mark already stored for it
    /// can only be left over from a history a restore replaced; the number is this write's now.
    func nextFeedPosition(now: Date) throws -> FeedPosition {
        // The mark is stored under the counter's next value, read in the same statement (the row's
        // id is the number), then the counter moves on: two statements and no read of their own.
        // `UPDATE … RETURNING` built a temporary table on every write (about 2% of a PUT).
        let mark = FeedPosition.newMark()
        let stored = try run(
            """
            INSERT OR REPLACE INTO seq_marks (seq, mark, created_at)
            SELECT value + 1, ?, ? FROM meta WHERE key = 'seq'
            """, mark, now.storedMilliseconds)
        guard stored == 1 else {
            throw SQLiteError(code: 1, message: "the feed's counter is missing from meta", sql: nil)
        }
        let seq = lastInsertRowID
        try run("UPDATE meta SET value = value + 1 WHERE key = 'seq'")
        return FeedPosition(seq: seq, mark: mark)
    }

    func currentFeedSeq() throws -> Int64 {
        try queryFirst("SELECT value FROM meta WHERE key = 'seq'") { $0.int64(0) } ?? 0
    }

    func storedFeedMark(_ seq: Int64) throws -> Int64? {
        try queryFirst("SELECT mark FROM seq_marks WHERE seq = ?", seq) { $0.int64(0) }
    }
}
