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
    /// frames its write-ahead log then holds (`sqlite3_wal_hook`).
    ///
    /// This takes the place of SQLite's automatic checkpoint (one hook a connection): the caller
    /// decides when the log is copied into the file (``checkpoint()``, here or from another
    /// connection). `body` may call ``checkpoint()``; it must run no other statement.
    public func onCommit(_ body: @escaping (_ logFrames: Int) -> Void) {
        let hook = CommitHook(body)
        commitHook = hook
        sqlite3_wal_hook(
            rawHandle,
            { context, _, _, frames in
                guard let context else { return SQLITE_OK }
                Unmanaged<CommitHook>.fromOpaque(context).takeUnretainedValue().body(Int(frames))
                return SQLITE_OK
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

/// The closure ``SQLiteConnection/onCommit(_:)`` registered, as a class SQLite's C callback
/// can find through its context pointer.
final class CommitHook {
    let body: (Int) -> Void

    init(_ body: @escaping (Int) -> Void) {
        self.body = body
    }
}
