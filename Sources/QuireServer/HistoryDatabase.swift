import Foundation

/// The one connection both stores lend ``NoteHistoryQueries`` inside their own transaction.
///
/// The statements are written once for both: `$1`, `$2`… placeholders (SQLite reads them as
/// `?1`, `?2`…), `TRUE`/`FALSE` literals, and `CAST` where PostgreSQL cannot infer a parameter's
/// type.
protocol HistoryDatabase {
    @discardableResult
    func historyRun(_ sql: String, _ values: [HistoryValue]) throws -> Int
    func historyRows<T>(_ sql: String, _ values: [HistoryValue], map: (any HistoryRow) throws -> T) throws -> [T]
}
