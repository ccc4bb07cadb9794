import CLibPQ
import Foundation

/// One connection to a PostgreSQL database, through libpq; every call blocks until the server
/// answers.
///
/// Not for concurrent use: one caller at a time (a ``PostgresPool`` lends each connection to one
/// caller, which is why it can be `@unchecked Sendable`: it moves between threads, but is never
/// used from two at once). Parameters travel in text form, apart from the SQL.
public final class PostgresConnection: @unchecked Sendable {
    private let handle: OpaquePointer

    /// Connects with a libpq connection string or URI (`postgres://user@host:port/db`,
    /// `host=/tmp port=5432 dbname=quire`). A password comes from the URI, `PGPASSWORD` or
    /// `~/.pgpass`, as libpq reads them.
    ///
    /// Throws ``PostgresError`` when the server cannot be reached or refuses the connection; the
    /// message names the host, port and database, never the password.
    public init(_ connectionString: String) throws {
        guard let handle = PQconnectdb(connectionString) else {
            throw PostgresError.connection("libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.trimmed(PQerrorMessage(handle))
            PQfinish(handle)
            throw PostgresError.connection(message)
        }
        self.handle = handle
        // Notices ("relation already exists, skipping") are not errors; libpq would print them.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        _ = try query("SET client_min_messages = warning")
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection is still usable (it has not broken).
    public var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Tries to connect again with the same parameters; returns whether that worked.
    public func reconnect() -> Bool {
        PQreset(handle)
        return isHealthy
    }

    /// Where this connection goes, for messages: host, port and database, never the password.
    public var target: String {
        let host = PQhost(handle).map { String(cString: $0) } ?? "?"
        let port = PQport(handle).map { String(cString: $0) } ?? "?"
        let db = PQdb(handle).map { String(cString: $0) } ?? "?"
        return "\(db) on \(host):\(port)"
    }

    // MARK: - Executing

    /// Runs SQL without parameters, which may be several statements separated by `;` (a schema).
    public func execute(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs one statement with `$1`, `$2`, … bound to `parameters` (nil is NULL) and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: (any PostgresBindable)?...) throws -> PostgresResult {
        try query(sql, parameters: parameters)
    }

    @discardableResult
    public func query(_ sql: String, parameters: [(any PostgresBindable)?]) throws -> PostgresResult {
        var texts = parameters.map { $0.map { strdup($0.postgresText) } ?? nil }
        defer { for text in texts { free(text) } }
        let result = texts.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                PQexecParams(handle, sql, Int32(parameters.count), nil, values.baseAddress, nil, nil, 0)
            }
        }
        defer { PQclear(result) }
        try check(result, sql: sql)
        guard let result else { return PostgresResult(rows: [], affectedRows: 0) }
        let columns = PQnfields(result)
        var rows: [PostgresRow] = []
        rows.reserveCapacity(Int(PQntuples(result)))
        for row in 0..<PQntuples(result) {
            var values: [String?] = []
            values.reserveCapacity(Int(columns))
            for column in 0..<columns {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(nil)
                } else {
                    values.append(String(cString: PQgetvalue(result, row, column)))
                }
            }
            rows.append(PostgresRow(values: values))
        }
        let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
        return PostgresResult(rows: rows, affectedRows: affected)
    }

    /// The first row of `sql`'s result mapped by `map`, or nil when it returned none.
    public func queryFirst<T>(
        _ sql: String, _ parameters: (any PostgresBindable)?..., map: (PostgresRow) throws -> T
    ) throws -> T? {
        try query(sql, parameters: parameters).first.map(map)
    }

    /// Every row of `sql`'s result mapped by `map`.
    public func queryAll<T>(
        _ sql: String, _ parameters: (any PostgresBindable)?..., map: (PostgresRow) throws -> T
    ) throws -> [T] {
        try query(sql, parameters: parameters).rows.map(map)
    }

    // MARK: - Transactions

    /// How much of other transactions' work a transaction sees.
    public enum Isolation: String, Sendable {
        /// Each statement sees what was committed when it began; a row lock waits for its holder.
        case readCommitted = "READ COMMITTED"
        /// Every statement sees one snapshot, taken at the transaction's first statement.
        case repeatableRead = "REPEATABLE READ"
    }

    /// Runs `body` in one transaction and returns its result after committing.
    ///
    /// If `body` throws, the transaction is rolled back and the error is rethrown; if the commit
    /// fails, its error is thrown (the transaction then did not happen).
    public func transaction<T>(_ isolation: Isolation = .readCommitted, _ body: () throws -> T) throws -> T {
        try execute("BEGIN ISOLATION LEVEL \(isolation.rawValue)")
        let value: T
        do {
            value = try body()
        } catch {
            do {
                try execute("ROLLBACK")
            } catch {
                // The transaction must not outlive this call on a pooled connection: a new
                // session ends it (the server rolls the old one back), and a connection that
                // cannot make one is unhealthy, which the pool replaces before lending it again.
                _ = reconnect()
            }
            throw error
        }
        try execute("COMMIT")
        return value
    }

    // MARK: - Errors

    private func check(_ result: OpaquePointer?, sql: String) throws {
        guard let result else {
            throw PostgresError.connection(Self.trimmed(PQerrorMessage(handle)), sql: sql)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M")))
            let message = Self.trimmed(primary ?? PQresultErrorMessage(result))
            if state == nil, !isHealthy { throw PostgresError.connection(message, sql: sql) }
            throw PostgresError.statement(sqlState: state, message: message, sql: sql)
        }
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "no message" }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
