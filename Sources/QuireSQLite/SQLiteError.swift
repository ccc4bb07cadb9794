import Foundation

/// A failed SQLite call: the result code, SQLite's message, and the SQL that was running.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The primary or extended SQLite result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, …).
    public let code: Int32
    public let message: String
    public let sql: String?

    public init(code: Int32, message: String, sql: String?) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    public var description: String {
        if let sql { return "SQLite error \(code): \(message) (in: \(sql))" }
        return "SQLite error \(code): \(message)"
    }

    /// True for a UNIQUE, PRIMARY KEY, CHECK or FOREIGN KEY violation.
    public var isConstraintViolation: Bool { code & 0xFF == 19 }
}
