import Foundation

/// One row of a history or trips query, as both stores' rows read it.
protocol HistoryRow {
    func int64At(_ column: Int) throws -> Int64
    func optionalInt64At(_ column: Int) throws -> Int64?
    func textAt(_ column: Int) throws -> String
    func optionalTextAt(_ column: Int) throws -> String?
    func boolAt(_ column: Int) throws -> Bool
    func bytesAt(_ column: Int) throws -> Data
}
