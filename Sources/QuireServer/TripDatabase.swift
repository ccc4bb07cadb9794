import Foundation

/// The one connection both stores lend ``TripQueries`` inside their own transaction: the
/// history's statements (``HistoryDatabase``), the server-wide sequence with its marks, and how
/// the store keeps concurrent writers of one trip apart.
protocol TripDatabase: HistoryDatabase {
    /// What a `SELECT` appends to lock the rows it reads until the transaction ends: `FOR UPDATE`
    /// where other transactions write at the same time (PostgreSQL, several instances on one
    /// database); empty where the one connection runs its transactions one at a time (SQLite).
    var rowLock: String { get }

    /// Takes the next number of the server-wide sequence and stores a fresh mark with it.
    func nextFeedPosition(now: Date) throws -> FeedPosition

    /// The last number the sequence handed out (0 before the first).
    func currentFeedSeq() throws -> Int64

    /// The mark stored with `seq`, nil when it has none.
    func storedFeedMark(_ seq: Int64) throws -> Int64?
}

extension TripDatabase {
    /// `seq` with its stored mark, 0 when it has none.
    func feedPosition(_ seq: Int64) throws -> FeedPosition {
        FeedPosition(seq: seq, mark: try storedFeedMark(seq) ?? 0)
    }

    /// Runs `sql`, a `SELECT … \(rowLock)`, for its locks alone; nothing where the store takes none.
    func lockRows(_ sql: String, _ values: [HistoryValue]) throws {
        guard !rowLock.isEmpty else { return }
        _ = try historyRows(sql + " " + rowLock, values) { _ in () }
    }
}
