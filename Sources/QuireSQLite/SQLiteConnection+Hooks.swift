import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

extension SQLiteConnection {
    /// What a PASSIVE checkpoint did: the frames the write-ahead log holds, and how many of them
    /// are now in the database file (all of them: the next write starts the log over).
    public struct Checkpoint: Sendable, Equatable {
        public var logFrames: Int
        public var copiedFrames: Int
    }

    /// Calls `body` on this connection's thread after each of its commits, with the number of
    /// frames its write-ahead log then holds (`sqlite3_wal_hook`). SQLite calls it once the commit
    /// has taken place and the write lock is released: a reader that starts after it sees the
    /// commit. Bodies registered on one connection run in the order they were added.
    ///
    /// This takes the place of SQLite's automatic checkpoint (one hook a connection): the caller
    /// decides when the log is copied into the file (``checkpoint()``, here or from another
    /// connection). `body` may call ``checkpoint()``; it must run no other statement.
    public func onCommit(_ body: @escaping (_ logFrames: Int) -> Void) {
        if let commitHook {
            commitHook.bodies.append(body)
            return
        }
        let hook = CommitHook(body)
        commitHook = hook
        sqlite3_wal_hook(
            rawHandle,
            { context, _, _, frames in
                guard let context else { return SQLITE_OK }
                for body in Unmanaged<CommitHook>.fromOpaque(context).takeUnretainedValue().bodies { body(Int(frames)) }
                return SQLITE_OK
            }, Unmanaged.passUnretained(hook).toOpaque())
    }

    /// Calls `body` on this connection's thread each time one of its statements inserts, updates
    /// or deletes a row of `table` (`sqlite3_update_hook`, one a connection), before the change
    /// commits or rolls back. SQLite does not call it for a `WITHOUT ROWID` table, nor for a
    /// `DELETE` without a `WHERE` that it runs by emptying the table at once (one that no
    /// foreign key or trigger touches): `table` must be a rowid table, and a caller that empties
    /// it whole must say so itself.
    public func onRowChange(in table: String, _ body: @escaping () -> Void) {
        let hook = RowChangeHook(table: table, body: body)
        rowChangeHook = hook
        sqlite3_update_hook(
            rawHandle,
            { context, _, _, changedTable, _ in
                guard let context, let changedTable else { return }
                let hook = Unmanaged<RowChangeHook>.fromOpaque(context).takeUnretainedValue()
                if strcmp(changedTable, hook.table) == 0 { hook.body() }
            }, Unmanaged.passUnretained(hook).toOpaque())
    }

    /// Copies as much of the write-ahead log into the database file as no reader still needs,
    /// without waiting for any reader or writer (`SQLITE_CHECKPOINT_PASSIVE`); syncs the file
    /// first and after as the connection's `synchronous` setting says.
    @discardableResult
    public func checkpoint() throws -> Checkpoint {
        var log: Int32 = 0
        var copied: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(rawHandle, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &copied)
        guard code == SQLITE_OK else {
            throw SQLiteError(
                code: code, message: String(cString: sqlite3_errmsg(rawHandle)), sql: "checkpoint (PASSIVE)")
        }
        return Checkpoint(logFrames: Int(log), copiedFrames: Int(copied))
    }
}

/// The closures ``SQLiteConnection/onCommit(_:)`` registered, as a class SQLite's C callback
/// can find through its context pointer.
final class CommitHook {
    var bodies: [(Int) -> Void]

    init(_ body: @escaping (Int) -> Void) {
        self.bodies = [body]
    }
}

/// What ``SQLiteConnection/onRowChange(in:_:)`` registered: the table's name as C text, and the
/// closure.
final class RowChangeHook {
    let table: [CChar]
    let body: () -> Void

    init(table: String, body: @escaping () -> Void) {
        self.table = Array(table.utf8CString)
        self.body = body
    }
}
