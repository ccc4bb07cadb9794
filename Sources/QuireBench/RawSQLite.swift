import Foundation
import QuireSQLite

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// The baseline side of the local-store benchmarks: bare SQLite C calls, no wrapper, no actor.
///
/// Opened by default with the same pragmas as `SQLiteConnection` (WAL, `synchronous=FULL`, foreign
/// keys on), so the difference measured is what our layers add. Not thread-safe: one owner.
final class RawSQLite {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// The pragmas of `SQLiteConnection` with full durability, which the save benchmarks compare with.
    static let savePragmas = "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON"

    init(path: String, pragmas: String = RawSQLite.savePragmas) throws {
        // The library's settings of the connections it is compared with (the first to start it
        // fixes them for the process).
        _ = SQLiteLibrary.configured
        var pointer: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &pointer, flags, nil) == SQLITE_OK, let pointer else {
            throw BenchFailure("raw sqlite3_open_v2 failed for \(path)")
        }
        handle = pointer
        sqlite3_busy_timeout(pointer, 5_000)
        try execute(pragmas)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchFailure("raw sqlite: \(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
    }

    /// Runs one statement with text, double or NULL parameters (by `Any?` for brevity: a baseline
    /// that binds what the wrapper binds).
    func run(_ sql: String, _ values: [RawValue]) throws {
        let statement = try prepared(sql)
        defer { sqlite3_reset(statement) }
        bind(statement, values)
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw BenchFailure("raw sqlite: \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    /// Steps a query and reads every column of every row as text or double; returns the row count.
    func readAll(_ sql: String) throws -> Int {
        let statement = try prepared(sql)
        defer { sqlite3_reset(statement) }
        var rows = 0
        var retained: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            for column in 0..<sqlite3_column_count(statement) {
                if sqlite3_column_type(statement, column) == SQLITE_TEXT,
                    let text = sqlite3_column_text(statement, column)
                {
                    retained.append(String(cString: text))
                } else {
                    _ = sqlite3_column_double(statement, column)
                }
            }
            rows += 1
        }
        return retained.isEmpty ? 0 : rows
    }

    enum RawValue {
        case text(String)
        case real(Double)
        case integer(Int64)
        case blob([UInt8])
        case null
    }

    private func bind(_ statement: OpaquePointer, _ values: [RawValue]) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .text(let text): sqlite3_bind_text(statement, index, text, -1, rawTransient)
            case .real(let number): sqlite3_bind_double(statement, index, number)
            case .integer(let number): sqlite3_bind_int64(statement, index, number)
            case .blob(let bytes):
                bytes.withUnsafeBytes {
                    _ = sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), rawTransient)
                }
            case .null: sqlite3_bind_null(statement, index)
            }
        }
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        var pointer: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &pointer, nil) == SQLITE_OK, let pointer else {
            throw BenchFailure("raw sqlite: \(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
        statements[sql] = pointer
        return pointer
    }
}

/// `SQLITE_TRANSIENT`: SQLite copies the bound bytes.
private let rawTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
