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
        case .bool(let flag): flag
        case .bytes(let data): data
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
    func bytesAt(_ column: Int) throws -> Data { try bytes(column) }
}

/// The PostgreSQL store's sequence and row locks, as ``TripQueries`` uses them.
extension PostgresConnection: TripDatabase {
    /// Instances share the database: a trip's writers lock its row (and their members' account
    /// rows) so they run one after another.
    var rowLock: String { "FOR UPDATE" }

    func nextFeedPosition(now: Date) throws -> FeedPosition {
        try PostgresServerStorage.nextSeq(self, now: now)
    }

    func currentFeedSeq() throws -> Int64 {
        try PostgresServerStorage.currentSeq(self)
    }

    func storedFeedMark(_ seq: Int64) throws -> Int64? {
        try PostgresServerStorage.storedMark(seq, db: self)
    }
}
