import Foundation
import QuirePostgres

/// The PostgreSQL store's connection and rows, as ``NoteHistoryQueries`` uses them.
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
