import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// One connection to one SQLite database file.
///
/// Not thread-safe and deliberately not `Sendable`: own it from exactly one actor, which then is the
/// file's one writer (GRDB's rule: connect to a database file only once). Prepared statements are
/// cached by their SQL text for the connection's lifetime.
public final class SQLiteConnection {
    /// How hard a commit reaches for the disk.
    public enum Durability: String, Sendable {
        /// `synchronous=FULL`: a commit survives a power cut as well as a killed process.
        case full = "FULL"
        /// `synchronous=NORMAL`: a commit survives a killed process; the last ones may be lost on power loss.
        case normal = "NORMAL"
    }

    private let handle: OpaquePointer
    private var statements: [StatementKey: OpaquePointer] = [:]
    private var transactionDepth = 0
    /// What ``onCommit(_:)`` registered, kept alive as long as SQLite may call it.
    var commitHook: CommitHook?
    /// What ``onRowChange(in:_:)`` registered, kept alive as long as SQLite may call it.
    var rowChangeHook: RowChangeHook?
    public let path: String

    /// Opens (creating if needed) the database at `path` in WAL mode with foreign keys on.
    ///
    /// - Parameter pageSize: the page size, in bytes, of a file this creates (a power of two from
    ///   512 to 65,536); an existing file keeps its own. nil: SQLite's default (4,096).
    /// Throws ``SQLiteError`` when the file cannot be opened or is not a database.
    ///
    /// `vfs` names a registered SQLite VFS to open the file through (nil: the default one).
    public init(path: String, durability: Durability = .full, pageSize: Int? = nil, vfs: String? = nil) throws {
        _ = SQLiteLibrary.configured
        var pointer: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &pointer, flags, vfs)
        guard code == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let pointer { sqlite3_close_v2(pointer) }
            throw SQLiteError(code: code, message: message, sql: nil)
        }
        self.handle = pointer
        self.path = path
        sqlite3_extended_result_codes(pointer, 1)
        // Another process of the device (a `watch`, a first open migrating the file) may hold the
        // write lock for a while on a loaded machine: wait for it rather than fail the save.
        sqlite3_busy_timeout(pointer, Int32(Self.busyTimeout.components.seconds * 1_000))
        do {
            // Before the journal mode: a new file takes its page size when its first page is
            // written, and a file in WAL mode can no longer change it.
            if let pageSize { try execute("PRAGMA page_size=\(pageSize)") }
            try enterWriteAheadLog()
            try execute("PRAGMA synchronous=\(durability.rawValue)")
            try execute("PRAGMA foreign_keys=ON")
        } catch {
            sqlite3_close_v2(pointer)
            throw error
        }
    }

    /// How long a statement waits for another connection's lock before it fails with
    /// `SQLITE_BUSY`.
    static let busyTimeout = Duration.seconds(20)

    /// Turns the file to WAL. The first openers of a new file race to do it, and SQLite answers all
    /// but one `SQLITE_BUSY` at once, without waiting (its busy handler is skipped where waiting
    /// could deadlock): two `quire` commands started together on a fresh data directory failed
    /// so. Try again within the busy timeout; once another opener has turned the file, this is a
    /// read.
    private func enterWriteAheadLog() throws {
        let deadline = ContinuousClock.now + Self.busyTimeout
        while true {
            do {
                try execute("PRAGMA journal_mode=WAL")
                return
            } catch let error as SQLiteError where error.code & 0xFF == SQLITE_BUSY && ContinuousClock.now < deadline {
                usleep(UInt32.random(in: 1_000...10_000))
            }
        }
    }

    /// The `sqlite3` handle, for a C library working beside this connection (a VFS's statistics).
    /// Run no statements through it: the connection's statement cache and depth would not know.
    public var rawHandle: OpaquePointer { handle }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    // MARK: - Executing

    /// Runs one or more SQL statements that take no parameters (schema, pragmas).
    public func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw SQLiteError(code: code, message: message, sql: sql)
        }
    }

    /// Runs one statement with parameters, stepping it to completion. Returns the rows it changed.
    @discardableResult
    public func run(_ sql: String, _ bindings: SQLiteBindable...) throws -> Int {
        try run(sql, bindings: bindings)
    }

    @discardableResult
    public func run(_ sql: String, bindings: [SQLiteBindable]) throws -> Int {
        let statement = try prepared(sql, bindings: bindings)
        defer { sqlite3_reset(statement) }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            if code != SQLITE_ROW { throw error(code, sql) }
        }
        return Int(sqlite3_changes(handle))
    }

    /// Runs a query and maps each row. The row is only valid inside `map`.
    public func query<T>(
        _ sql: String, _ bindings: SQLiteBindable..., map: (SQLiteRow) throws -> T
    ) throws -> [T] {
        try query(sql, bindings: bindings, map: map)
    }

    public func query<T>(
        _ sql: String, bindings: [SQLiteBindable], map: (SQLiteRow) throws -> T
    ) throws -> [T] {
        let statement = try prepared(sql, bindings: bindings)
        defer { sqlite3_reset(statement) }
        var results: [T] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw error(code, sql) }
            results.append(try map(SQLiteRow(statement: statement)))
        }
        return results
    }

    /// The first row of a query, mapped, or nil when there is none.
    public func queryFirst<T>(
        _ sql: String, _ bindings: SQLiteBindable..., map: (SQLiteRow) throws -> T
    ) throws -> T? {
        let statement = try prepared(sql, bindings: bindings)
        defer { sqlite3_reset(statement) }
        let code = sqlite3_step(statement)
        if code == SQLITE_DONE { return nil }
        guard code == SQLITE_ROW else { throw error(code, sql) }
        return try map(SQLiteRow(statement: statement))
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    // MARK: - Transactions

    /// Runs `body` as one transaction and returns its result after it has committed.
    ///
    /// If `body` throws, the transaction is rolled back and the error is rethrown. Called inside
    /// another transaction, it becomes a savepoint that rolls back on its own.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        let savepoint = transactionDepth > 0 ? Savepoint(depth: transactionDepth) : nil
        // Prepared once and kept, as every statement `run` takes: a group commit opens and
        // releases a savepoint for each of its writes, and parsing them each time cost about 2%
        // of a PUT (issue 13, 6).
        try run(savepoint?.begin ?? "BEGIN IMMEDIATE")
        transactionDepth += 1
        // The depth drops exactly once, whether the body or the commit fails.
        defer { transactionDepth -= 1 }
        do {
            let result = try body()
            try run(savepoint?.release ?? "COMMIT")
            return result
        } catch {
            // A failed COMMIT (SQLITE_BUSY, a deferred constraint) leaves the transaction open: roll
            // it back too.
            if let savepoint {
                rollBackAfterFailure(savepoint.rollBack)
            } else if !isAutocommit {
                rollBackAfterFailure("ROLLBACK")
            }
            throw error
        }
    }

    /// Rolls back after `body` or COMMIT failed. A failure of the rollback itself is not reported:
    /// the caller gets the original error, which says what went wrong, and SQLite has already
    /// rolled back on the errors where its own ROLLBACK then fails ("no transaction is active").
    private func rollBackAfterFailure(_ sql: String) {
        do {
            try execute(sql)
        } catch {
            // See above: the original error is the one to report.
        }
    }

    public var isInTransaction: Bool { transactionDepth > 0 }

    /// True when SQLite has no transaction open (it may have rolled one back on its own, after an
    /// I/O error or a full disk, while ``isInTransaction`` still counts the caller's).
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    // MARK: - Schema version

    /// `PRAGMA user_version`, which the migrator uses as the schema version.
    public func userVersion() throws -> Int {
        try queryFirst("PRAGMA user_version") { $0.int(0) } ?? 0
    }

    public func setUserVersion(_ version: Int) throws {
        try execute("PRAGMA user_version = \(version)")
    }

    // MARK: - Internals

    private var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    private func error(_ code: Int32, _ sql: String) -> SQLiteError {
        SQLiteError(code: code, message: lastErrorMessage, sql: sql)
    }

    private func prepared(_ sql: String, bindings: [SQLiteBindable]) throws -> OpaquePointer {
        let statement: OpaquePointer
        let key = StatementKey(sql: sql)
        if let cached = statements[key] {
            statement = cached
        } else {
            var pointer: OpaquePointer?
            let code = sqlite3_prepare_v2(handle, sql, -1, &pointer, nil)
            guard code == SQLITE_OK, let pointer else { throw error(code, sql) }
            statements[key] = pointer
            statement = pointer
        }
        // Every parameter is bound below (the count is checked), each replacing the value of the
        // statement's last run: nothing to clear first.
        let expected = Int(sqlite3_bind_parameter_count(statement))
        guard expected == bindings.count else {
            throw SQLiteError(
                code: SQLITE_RANGE,
                message: "statement takes \(expected) parameters, \(bindings.count) given", sql: sql)
        }
        for (offset, value) in bindings.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value.sqliteValue {
            case .null:
                code = sqlite3_bind_null(statement, index)
            case .integer(let number):
                code = sqlite3_bind_int64(statement, index, number)
            case .real(let number):
                code = sqlite3_bind_double(statement, index, number)
            case .text(var text):
                // Its UTF-8 bytes in place, with their length: passing the String as a C string
                // copied every payload into a fresh array first.
                code = text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { chars in
                        // An empty string still needs a non-null pointer to bind as text, not NULL.
                        sqlite3_bind_text(
                            statement, index, chars.baseAddress ?? emptyCString, Int32(chars.count), sqliteTransient)
                    }
                }
            case .blob(let data):
                code = data.withUnsafeBytes { bytes in
                    // A zero-length blob still needs a non-null pointer to bind as a blob, not NULL.
                    sqlite3_bind_blob(
                        statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                        Int32(bytes.count), sqliteTransient)
                }
            }
            guard code == SQLITE_OK else { throw error(code, sql) }
        }
        return statement
    }
}

/// The bytes bound for an empty text: any non-null pointer with a length of 0.
private nonisolated(unsafe) let emptyCString: UnsafePointer<CChar> = {
    let byte = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
    byte.initialize(to: 0)
    return UnsafePointer(byte)
}()

/// `SQLITE_TRANSIENT` is a cast macro Swift does not import: SQLite copies the bound bytes.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
