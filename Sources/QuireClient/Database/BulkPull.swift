import QuireSQLite

/// The connection's settings while a pull stores large pages (a first sync, a full resync, a
/// device back after a long absence), measured in docs/benchmarks.md ("first sync").
///
/// - **Checkpoints less often.** SQLite copies the WAL back into the database file once it holds
///   1,000 pages (4 MB of 4 KiB pages, 8 MB of a new file's 8 KiB ones), and each such checkpoint waits for two fsyncs: about 25 of them for
///   10,000 notes of 2 KB. In bulk mode it waits for ``walBytes`` (64 MiB, as pages of the file's
///   own size: 8,192 of a new file's 8 KiB, 16,384 of an older file's 4 KiB), so the WAL stays
///   bounded at any size of account; leaving bulk mode runs a passive checkpoint and restores the
///   limit. Commits are exactly as durable: WAL frames reach the file at each commit as before,
///   and what a checkpoint copies is already in the WAL.
/// - **A larger page cache** (``cacheKiB``): SQLite's default of 2 MB is smaller than a page of
///   500 notes with its indexes and search terms, so each page read back what it had just written.
///
/// A crash in bulk mode leaves a larger WAL, which the next open recovers as always; the settings
/// belong to the connection and are not stored in the file.
struct BulkPull {
    /// Pages of at least this many notes switch bulk mode on (the engine asks for 500 a page; a
    /// pull of a few notes stays as it was).
    static let pageSize = 50
    /// The WAL's size, in bytes, at which bulk mode checkpoints (64 MiB: 16,384 pages of 4 KiB).
    static let walBytes = 64 << 20
    /// The page cache in bulk mode, in KiB.
    static let cacheKiB = 16_384

    private var walPagesBefore: Int
    private var cacheSizeBefore: Int

    /// Switches `connection` to bulk mode; the value restores it.
    static func begin(on connection: SQLiteConnection) throws -> BulkPull {
        let bulk = BulkPull(
            walPagesBefore: try connection.queryFirst("PRAGMA wal_autocheckpoint") { $0.int(0) } ?? 1_000,
            cacheSizeBefore: try connection.queryFirst("PRAGMA cache_size") { $0.int(0) } ?? -2_000)
        let pageSize = try connection.queryFirst("PRAGMA page_size") { $0.int(0) } ?? 4_096
        try connection.execute(
            "PRAGMA wal_autocheckpoint=\(walBytes / pageSize); PRAGMA cache_size=-\(cacheKiB)")
        return bulk
    }

    /// Copies what the WAL holds into the database file as far as no reader needs it (PASSIVE:
    /// it never waits for another process's reader), then restores the settings.
    func end(on connection: SQLiteConnection) throws {
        _ = try connection.queryFirst("PRAGMA wal_checkpoint(PASSIVE)") { $0.int(0) }
        try connection.execute(
            "PRAGMA wal_autocheckpoint=\(walPagesBefore); PRAGMA cache_size=\(cacheSizeBefore)")
    }
}
