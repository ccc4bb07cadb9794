import Foundation

/// A failed PostgreSQL call: what failed, the server's SQLSTATE when it sent one, its message,
/// and the SQL that was running.
///
/// A struct over a private enum (`Kind`) so the kinds of failure can grow without breaking callers.
public struct PostgresError: Error, CustomStringConvertible, Sendable, Equatable {
    private enum Kind: Equatable, Sendable {
        /// The server answered a statement with an error.
        case statement
        /// No connection could be made, or it broke.
        case connection
        /// A value came back in a form the reader did not expect (a programming error).
        case decoding
        /// The pool was closed.
        case closed
    }

    private let kind: Kind
    /// The five-character SQLSTATE (`23505` unique violation, `40001` serialization failure, …),
    /// nil when the failure did not come from the server.
    public let sqlState: String?
    public let message: String
    public let sql: String?

    private init(kind: Kind, sqlState: String? = nil, message: String, sql: String? = nil) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
    }

    static func statement(sqlState: String?, message: String, sql: String) -> PostgresError {
        PostgresError(kind: .statement, sqlState: sqlState, message: message, sql: sql)
    }

    static func connection(_ message: String, sql: String? = nil) -> PostgresError {
        PostgresError(kind: .connection, message: message, sql: sql)
    }

    /// A value a reader did not expect: a query and the code reading it disagree.
    public static func decoding(_ message: String) -> PostgresError {
        PostgresError(kind: .decoding, message: message)
    }

    /// The pool was closed; the caller is stopping.
    public static let closed = PostgresError(kind: .closed, message: "the PostgreSQL pool is closed")

    /// True when the connection failed or broke, rather than a statement.
    public var isConnectionFailure: Bool { kind == .connection }

    /// A UNIQUE or PRIMARY KEY violation (SQLSTATE 23505).
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// A serialization failure or a deadlock (SQLSTATE 40001, 40P01): running the whole
    /// transaction again may succeed.
    public var isTransient: Bool { sqlState == "40001" || sqlState == "40P01" }

    public var description: String {
        var text: String
        switch kind {
        case .statement: text = "PostgreSQL error \(sqlState ?? "?????"): \(message)"
        case .connection: text = "PostgreSQL connection failed: \(message)"
        case .decoding: text = "PostgreSQL value not understood: \(message)"
        case .closed: text = message
        }
        if let sql { text += " (in: \(sql))" }
        return text
    }
}
