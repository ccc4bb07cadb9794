import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// The current row of a stepping statement. Valid only inside the `query` closure that received it.
public struct SQLiteRow {
    let statement: OpaquePointer

    public var columnCount: Int { Int(sqlite3_column_count(statement)) }

    public func isNull(_ column: Int) -> Bool {
        sqlite3_column_type(statement, Int32(column)) == SQLITE_NULL
    }

    public func int(_ column: Int) -> Int {
        Int(sqlite3_column_int64(statement, Int32(column)))
    }

    public func int64(_ column: Int) -> Int64 {
        sqlite3_column_int64(statement, Int32(column))
    }

    public func optionalInt(_ column: Int) -> Int? {
        isNull(column) ? nil : int(column)
    }

    public func bool(_ column: Int) -> Bool { int64(column) != 0 }

    public func double(_ column: Int) -> Double {
        sqlite3_column_double(statement, Int32(column))
    }

    public func optionalDouble(_ column: Int) -> Double? {
        isNull(column) ? nil : double(column)
    }

    /// The column as text; an empty string for NULL.
    public func text(_ column: Int) -> String {
        guard let pointer = sqlite3_column_text(statement, Int32(column)) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    public func optionalText(_ column: Int) -> String? {
        isNull(column) ? nil : text(column)
    }

    /// The column as bytes; empty for NULL.
    public func blob(_ column: Int) -> Data {
        let count = Int(sqlite3_column_bytes(statement, Int32(column)))
        guard count > 0, let pointer = sqlite3_column_blob(statement, Int32(column)) else {
            return Data()
        }
        return Data(bytes: pointer, count: count)
    }

    public func optionalBlob(_ column: Int) -> Data? {
        isNull(column) ? nil : blob(column)
    }
}
