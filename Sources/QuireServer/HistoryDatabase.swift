import Foundation
import QuirePostgres
import QuireSQLite

/// A value bound to, or read from, a statement of ``NoteHistoryQueries``.
enum HistoryValue: Sendable, Equatable {
    case int(Int64)
    case text(String)
    case null
}

/// One row of a history query, as both stores' rows read it.
protocol HistoryRow {
    func int64At(_ column: Int) throws -> Int64
    func optionalInt64At(_ column: Int) throws -> Int64?
    func textAt(_ column: Int) throws -> String
    func optionalTextAt(_ column: Int) throws -> String?
    func boolAt(_ column: Int) throws -> Bool
}

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
    static func numberedParameters(_ sql: String) -> String {
        sql.replacingOccurrences(of: "$", with: "?")
    }

    private static func bindable(_ value: HistoryValue) -> any SQLiteBindable {
        switch value {
        case .int(let number): number
        case .text(let text): text
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
}

extension PostgresConnection: HistoryDatabase {
    func historyRun(_ sql: String, _ values: [HistoryValue]) throws -> Int {
        try query(sql, parameters: values.map(Self.bindable)).affectedRows
    }

    func historyRows<T>(_ sql: String, _ values: [HistoryValue], map: (any HistoryRow) throws -> T) throws -> [T] {
        try query(sql, parameters: values.map(Self.bindable)).rows.map { try map($0) }
    }

    private static func bindable(_ value: HistoryValue) -> (any PostgresBindable)? {
        switch value {
        case .int(let number): number
        case .text(let text): text
        case .null: nil
        }
    }
}

extension PostgresRow: HistoryRow {
    func int64At(_ column: Int) throws -> Int64 { try int64(column) }
    func optionalInt64At(_ column: Int) throws -> Int64? { try optionalInt64(column) }
    func textAt(_ column: Int) throws -> String { try text(column) }
    func optionalTextAt(_ column: Int) throws -> String? { try optionalText(column) }
    func boolAt(_ column: Int) throws -> Bool { try bool(column) }
}
