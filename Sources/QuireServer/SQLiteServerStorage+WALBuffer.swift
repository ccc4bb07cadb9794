import CSQLiteWALBuffer
import QuireSQLite

/// The writer's write-ahead log through the `quire-wal-buffer` VFS (Sources/CSQLiteWALBuffer):
/// SQLite writes each log frame as two writes, its 24-byte header and its page, so a commit of N
/// pages cost 2N `pwrite` calls; gathered, it is one call for up to 30 frames, handed to the
/// kernel before the log is synced. Nothing is answered before that sync (`synchronous=FULL`),
/// and another connection sees a commit only after it, so what they read is what was written.
extension SQLiteServerStorage {
    /// The VFS that gathers a connection's log writes (registered once), or nil (the default
    /// VFS) if it could not be registered.
    static let walBufferVFS: String? = {
        // Registering starts SQLite, after which its process-wide settings can no longer change.
        _ = SQLiteLibrary.configured
        return csqlite_wal_buffer_register() == 0 ? String(cString: csqlite_wal_buffer_vfs_name) : nil
    }()

    /// How many writes SQLite made to the writer's log and how many reached the kernel; nil when
    /// the log is not gathered. For tests.
    var walWriteCounts: (asked: Int, made: Int)? {
        guard let connection = try? open() else { return nil }
        var asked: Int64 = 0
        var made: Int64 = 0
        guard csqlite_wal_buffer_counts(connection.rawHandle, &asked, &made) == 1 else { return nil }
        return (Int(asked), Int(made))
    }
}
