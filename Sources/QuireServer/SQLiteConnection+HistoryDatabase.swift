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
