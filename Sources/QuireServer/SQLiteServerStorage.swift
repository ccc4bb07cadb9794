import Foundation
import QuireLock
import QuireSQLite

/// ``ServerStorage`` in one SQLite file: the embedded default.
///
/// The actor owns the file's only connection, so it is the one writer; every method runs as one
/// `BEGIN IMMEDIATE` transaction that rolls back when anything in it throws, on a thread of the
/// actor's own (``WriterThreadExecutor``), since every commit blocks in `fsync`. Note writes from
/// concurrent requests share a transaction (group commit, `SQLiteServerStorage+GroupCommit.swift`):
/// each is a savepoint of its own and is answered after the shared COMMIT. Times are stored as
/// milliseconds since 1970.
public actor SQLiteServerStorage: ServerStorage {
    /// The thread every method runs on: the writer's commits block in `fsync`, which must not
    /// hold one of Swift's cooperative threads (``WriterThreadExecutor``).
    nonisolated let executor = WriterThreadExecutor(name: "quire-writer")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private var connection: SQLiteConnection?
    /// Whether note writes wait for a shared commit (see ``WriteGroup``).
    let groupsCommits: Bool
    /// The note writes waiting for the next shared commit.
    var writeGroup = WriteGroup()
    /// A second connection for reads that must not wait behind a COMMIT (each request's session
    /// lookup), used on the caller's thread under its lock; nil once closed. WAL lets it read the
    /// last committed state while the actor writes. A `:memory:` database is one connection's
    /// alone: it has no reader, and its lookups run on the actor.
    nonisolated let reader: Locked<SQLiteConnection?>
    nonisolated let hasReader: Bool
    /// Copies the WAL into the file off the writer's commits; nil for a database in memory.
    nonisolated let checkpoints: SQLiteBackgroundCheckpoint?
    /// The sessions the reader found, kept until the writer changes a session; nil for a
    /// database in memory (no reader: its lookups run on the actor).
    nonisolated let sessionCache: SessionCache?

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    ///
    /// Throws ``SQLiteError`` when the file cannot be opened, is not a database, or comes from a
    /// newer version of the server.
    ///
    /// The file is the server's whole state (tokens' hashes, wrapped keys, ciphertext): it is made
    /// readable by its owner only (0600), as are the journal files SQLite makes beside it with the
    /// same mode; an existing file with looser permissions is tightened (issue 12, 9).
    ///
    /// `groupCommit` false commits every note write on its own (one fsync each), as before
    /// issue 13's part 6: for measuring the difference, and a way back if it is ever needed.
    ///
    /// `checkpointFrames`: the WAL's size, in pages, at which the checkpoint thread copies it into
    /// the file (a test makes it small). `log` is told when such a copy fails.
    public init(
        path: String, groupCommit: Bool = true, checkpointFrames: Int = 4_000,
        log: @escaping @Sendable (String) -> Void = NotesServer.logToStandardError
    ) throws {
        Self.restrictToOwner(path)
        // The writer's log writes are gathered into one write a commit (see csqlite_wal_buffer.h:
        // SQLite writes each frame's header and page apart, two system calls a page). Safe only
        // because every commit syncs the log (`.full`), which writes the gathered frames first.
        let connection = try SQLiteConnection(path: path, durability: .full, vfs: Self.walBufferVFS)
        // The writer's pages stay cached across its commits (no other connection writes): 64 MiB
        // rather than SQLite's 2 MiB keeps the indexes and recent rows that every write walks
        // from being read again from the file.
        try connection.execute("PRAGMA cache_size=-65536")
        // Each write of a shared commit is a savepoint, whose undo pages SQLite keeps in a
        // statement journal; past 64 KiB it spilled to a temporary file (created, written and
        // deleted about every other commit). In memory, the journal costs no system calls; it
        // only ever rolls a savepoint back and plays no part in durability.
        try connection.execute("PRAGMA temp_store=MEMORY")
        try Self.migrator.migrate(connection)
        // The WAL is copied into the file on a thread of its own (``SQLiteBackgroundCheckpoint``),
        // not inside the COMMIT that passes the limit, which every write of its group waited
        // for; every 4,000 pages (16 MiB) rather than SQLite's 1,000 copies the pages that
        // consecutive commits keep rewriting (the newest notes', indexes', the feed counter's)
        // fewer times. Each commit is still fsynced on its own (synchronous=FULL).
        self.checkpoints =
            path == ":memory:" || path.isEmpty
            ? nil
            : try SQLiteBackgroundCheckpoint(path: path, writer: connection, frames: checkpointFrames, report: log)
        self.connection = connection
        self.groupsCommits = groupCommit
        let reader = try Self.openReader(path)
        self.hasReader = reader != nil
        self.reader = Locked(reader)
        if reader != nil {
            // `sessions` is a rowid table the store never empties whole: SQLite reports each
            // of its changes (see ``SQLiteConnection/onRowChange(in:_:)``).
            let cache = SessionCache()
            connection.onRowChange(in: "sessions") { cache.sessionsChanging() }
            connection.onCommit { _ in cache.committed() }
            self.sessionCache = cache
        } else {
            self.sessionCache = nil
        }
    }

    public func close() {
        checkpoints?.stop()
        // No session is answered from memory after the close (its lookups then fail as closed),
        // and with the writer gone no commit opens the cache again.
        sessionCache?.sessionsChanging()
        connection = nil
        reader.withLock { $0 = nil }
    }

    /// A read-only connection to the file at `path`; nil for a database in memory.
    private static func openReader(_ path: String) throws -> SQLiteConnection? {
        guard path != ":memory:", !path.isEmpty else { return nil }
        let reader = try SQLiteConnection(path: path, durability: .full)
        try reader.execute("PRAGMA query_only=1")
        return reader
    }

    /// Creates `path` with mode 0600 if it does not exist, and takes group and other permissions
    /// off it (and off its `-wal` and `-shm` files) if it does. `:memory:` and failures are left
    /// to the open, which reports them.
    static func restrictToOwner(_ path: String) {
        guard path != ":memory:", !path.isEmpty else { return }
        let descriptor = Foundation.open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor >= 0 { Foundation.close(descriptor) }
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            if stat(file, &info) == 0, info.st_mode & 0o077 != 0 { chmod(file, 0o600) }
        }
    }

    // MARK: - Writes

    /// The whole batch in one transaction: one flush to disk for all of it. Each write inside is a
    /// savepoint with exactly the single route's rules.
    public func writeBatch(
        _ writes: [(write: NoteWrite, idempotency: IdempotencyKey)], account: AccountID,
        writer: SessionID?, quota: NoteQuota, now: Date,
        record: @escaping @Sendable (NoteWriteOutcome) -> RecordedAnswer?
    ) async throws -> [WriteResult] {
        try await grouped {
            try self.writeBatchNow(writes, account: account, writer: writer, quota: quota, now: now, record: record)
        }
    }

    public func write(
        _ write: NoteWrite, account: AccountID, writer: SessionID?, idempotency: IdempotencyKey,
        quota: NoteQuota, now: Date, record: @escaping @Sendable (NoteWriteOutcome) -> RecordedAnswer?
    ) async throws -> WriteResult {
        try await grouped {
            try self.writeNow(
                write, account: account, writer: writer, idempotency: idempotency, quota: quota, now: now,
                record: record)
        }
    }

    private func writeBatchNow(
        _ writes: [(write: NoteWrite, idempotency: IdempotencyKey)], account: AccountID,
        writer: SessionID?, quota: NoteQuota, now: Date,
        record: @escaping @Sendable (NoteWriteOutcome) -> RecordedAnswer?
    ) throws -> [WriteResult] {
        let db = try open()
        return try db.transaction {
            // The batch is one savepoint: a change that throws fails the whole batch, so its
            // changes need none of their own. Each saved change is the account's newest feed
            // position, so it is the next change's previous one, with no query.
            var feedPosition: FeedPosition?
            return try writes.map { item in
                let result = try self.applyOnce(
                    item.write, account: account, writer: writer, idempotency: item.idempotency,
                    quota: quota, now: now, knownPosition: feedPosition, record: record, db: db)
                switch result {
                case .applied(.saved(_, let position, _)):
                    feedPosition = FeedPosition(seq: position.seq, mark: position.mark ?? 0)
                case .applied(let outcome) where outcome.changedFeed:
                    feedPosition = nil
                default:
                    break
                }
                return result
            }
        }
    }

    private func writeNow(
        _ write: NoteWrite, account: AccountID, writer: SessionID?, idempotency: IdempotencyKey,
        quota: NoteQuota, now: Date, record: @escaping @Sendable (NoteWriteOutcome) -> RecordedAnswer?
    ) throws -> WriteResult {
        let db = try open()
        return try db.transaction {
            try applyOnce(
                write, account: account, writer: writer, idempotency: idempotency, quota: quota, now: now,
                knownPosition: nil, record: record, db: db)
        }
    }

    /// One write under its idempotency key, inside the caller's transaction: the recorded answer
    /// when the key was used for the same request, else `write` applied and its answer recorded.
    /// `knownPosition`: the account's feed position when the caller knows it (the change before
    /// it in the same transaction), so it is not read again.
    private func applyOnce(
        _ write: NoteWrite, account: AccountID, writer: SessionID?, idempotency: IdempotencyKey,
        quota: NoteQuota, now: Date, knownPosition: FeedPosition?,
        record: @escaping @Sendable (NoteWriteOutcome) -> RecordedAnswer?, db: SQLiteConnection
    ) throws -> WriteResult {
        let seen = try db.queryFirst(
            Self.recordQuery, account.rawValue, idempotency.key
        ) { row in (row.text(0), try RecordedAnswer(row: row, at: 1)) }
        if let (fingerprint, answer) = seen {
            return fingerprint == idempotency.fingerprint ? .replayed(answer) : .keyReused
        }
        let outcome = try apply(
            write, account: account, writer: writer, quota: quota, now: now, knownPosition: knownPosition, db: db)
        if let answer = record(outcome) {
            let key: [HistoryValue] = [
                .int(account.rawValue), .text(idempotency.key), .text(idempotency.fingerprint),
                .int(now.storedMilliseconds),
            ]
            try db.run(Self.recordInsert, bindings: (key + answer.storedValues).map(SQLiteConnection.bindable))
        }
        return .applied(outcome)
    }

    private static let recordQuery = """
        SELECT fingerprint, \(RecordedAnswer.storedColumns) FROM idempotency_records
        WHERE account_id = ? AND key = ?
        """

    private static let recordInsert = """
        INSERT INTO idempotency_records
            (account_id, key, fingerprint, created_at, \(RecordedAnswer.storedColumns))
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Decides `write` against the note's current row and stores the result. Runs inside the
    /// caller's transaction.
    private func apply(
        _ write: NoteWrite, account: AccountID, writer: SessionID?, quota: NoteQuota, now: Date,
        knownPosition: FeedPosition?, db: SQLiteConnection
    ) throws -> NoteWriteOutcome {
        switch write {
        case .put(let noteID, let payload, let base):
            let baseVersion = base?.number
            let previous = try knownPosition ?? feedPosition(account: account, db: db)
            guard let current = try note(noteID, account: account, db: db) else {
                // A base for a note the server no longer has must not lose the client's text. An
                // id whose tombstone was purged goes on from its last version.
                let purged =
                    try db.queryFirst(
                        "SELECT version FROM purged_versions WHERE account_id = ? AND note_id = ?",
                        account.rawValue, noteID
                    ) { $0.int(0) } ?? 0
                if purged > 0, baseVersion != purged {
                    // A write to an id whose tombstone was purged may be a resend whose
                    // idempotency record expired with the tombstone (10-device seed 739):
                    // applying it would apply one change twice. The device meets the delete
                    // instead (a 409 with the tombstone), and its conflict policy decides, as for
                    // any delete it missed: an edit beats it under a new change id.
                    return .conflict(
                        StoredNote(
                            id: noteID, version: purged, updatedAt: now, deleted: true, payload: nil,
                            seq: try currentSeq(db)))
                }
                if let limit = try quotaPassed(quota, account: account, replacing: nil, with: payload, db: db) {
                    return .quotaExceeded(limit)
                }
                let version = purged + 1
                let position = try nextSeq(db, now: now)
                try db.run(
                    """
                    INSERT INTO notes
                        (account_id, note_id, version, deleted, payload, updated_at, seq, written_by,
                        mark, payload_bytes)
                    VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?)
                    """, account.rawValue, noteID, version, payload, now.storedMilliseconds,
                    position.seq, writer?.rawValue, position.mark ?? 0, payload.utf8.count)
                if purged > 0 {
                    try db.run(
                        "DELETE FROM purged_versions WHERE account_id = ? AND note_id = ?",
                        account.rawValue, noteID)
                }
                return .saved(version: version, position: position, previous: previous)
            }
            guard let base, base.names(current) else {
                let known = try base.flatMap { try NoteMarkQueries.knows($0, of: current, account: account, db: db) }
                return .conflict(current, baseKnown: known)
            }
            if let limit = try quotaPassed(quota, account: account, replacing: current, with: payload, db: db) {
                return .quotaExceeded(limit)
            }
            // Also revives a tombstone: an edit beats a delete.
            let position = try update(
                current, account: account, deleted: false, payload: payload, writer: writer, now: now, db: db)
            return .saved(version: current.version + 1, position: position, previous: previous)

        case .delete(let noteID, let base):
            guard let current = try note(noteID, account: account, db: db) else { return .notFound }
            if current.deleted { return .alreadyDeleted }
            guard base.names(current) else {
                return .conflict(
                    current, baseKnown: try NoteMarkQueries.knows(base, of: current, account: account, db: db))
            }
            try update(current, account: account, deleted: true, payload: nil, writer: writer, now: now, db: db)
            return .deleted
        }
    }

    /// Stores the note's next state over `current` as the next change of the feed; returns its
    /// position.
    @discardableResult
    private func update(
        _ current: StoredNote, account: AccountID, deleted: Bool, payload: String?, writer: SessionID?,
        now: Date, db: SQLiteConnection
    ) throws -> FeedPosition {
        let noteID = current.id
        let version = current.version + 1
        let position = try nextSeq(db, now: now)
        try NoteHistoryQueries.archiveCurrent(noteID, account: account, now: now, db: db)
        try NoteMarkQueries.keepMark(of: current, account: account, db: db)
        try db.run(
            """
            UPDATE notes SET version = ?, deleted = ?, payload = ?, updated_at = ?, seq = ?,
                written_by = ?, mark = ?, payload_bytes = ?
            WHERE account_id = ? AND note_id = ?
            """, version, deleted, payload, now.storedMilliseconds, position.seq,
            writer?.rawValue, position.mark ?? 0, payload?.utf8.count ?? 0, account.rawValue, noteID)
        return position
    }

    private func note(_ noteID: String, account: AccountID, db: SQLiteConnection) throws
        -> StoredNote?
    {
        try db.queryFirst(
            """
            SELECT note_id, version, updated_at, deleted, payload, seq, written_by, mark FROM notes
            WHERE account_id = ? AND note_id = ?
            """, account.rawValue, noteID, map: Self.storedNote)
    }

    /// The account's position in its feed: its latest change, or its purge mark if later, with
    /// that number's stored mark (0 when it has none).
    private func feedPosition(account: AccountID, db: SQLiteConnection) throws -> FeedPosition {
        try db.queryFirst(
            """
            SELECT position, COALESCE((SELECT mark FROM seq_marks WHERE seq = position), 0)
            FROM (
                SELECT MAX(COALESCE((SELECT MAX(seq) FROM notes WHERE account_id = ?1), 0),
                    purged_seq) AS position
                FROM accounts WHERE id = ?1)
            """, account.rawValue
        ) { FeedPosition(seq: $0.int64(0), mark: $0.int64(1)) } ?? FeedPosition(seq: 0, mark: 0)
    }

    /// Bumps the server-wide change counter inside the caller's transaction and stores a fresh
    /// random mark with the new number; returns both (see `SQLiteConnection.nextFeedPosition`).
    func nextSeq(_ db: SQLiteConnection, now: Date) throws -> FeedPosition {
        try db.nextFeedPosition(now: now)
    }

    /// `seq` with its stored mark, 0 when it has none (sequence 0, pruned, or from before marks).
    func position(_ seq: Int64, db: SQLiteConnection) throws -> FeedPosition {
        FeedPosition(seq: seq, mark: try storedMark(seq, db: db) ?? 0)
    }

    func storedMark(_ seq: Int64, db: SQLiteConnection) throws -> Int64? {
        try db.storedFeedMark(seq)
    }

    func currentSeq(_ db: SQLiteConnection) throws -> Int64 {
        try db.currentFeedSeq()
    }

    // MARK: - Reads

    public func changes(account: AccountID, since: FeedPosition?, known: [FeedPosition] = [], limit: Int)
        throws -> ChangesResult
    {
        try changes(account: account, since: since, listingStart: nil, known: known, limit: limit)
    }

    public func changes(
        account: AccountID, continuingFullListingAfter since: FeedPosition,
        listingStart: FeedPosition, known: [FeedPosition] = [], limit: Int
    ) throws -> ChangesResult {
        try changes(account: account, since: since, listingStart: listingStart, known: known, limit: limit)
    }

    /// One page after `since` (nil: a full listing's first page). `.cursorAhead` when `since` or
    /// `listingStart` is above the server's counter, `.cursorFromAnotherHistory` when either's
    /// mark is not its number's stored one, `.cursorExpired` once the account's purge mark passed
    /// `listingStart` (a listing) or `since` (an incremental pull). `known` (acknowledged writes'
    /// positions) are only checked for being in this history: a number whose mark was pruned
    /// cannot be told apart, and expires nothing.
    private func changes(
        account: AccountID, since: FeedPosition?, listingStart: FeedPosition?, known: [FeedPosition],
        limit: Int
    ) throws -> ChangesResult {
        let db = try open()
        return try db.transaction {
            let purgedSeq =
                try db.queryFirst(
                    "SELECT purged_seq FROM accounts WHERE id = ?", account.rawValue
                ) { $0.int64(0) } ?? 0
            let counter = try currentSeq(db)
            let named = [since, listingStart].compactMap { $0 }
            if (named + known).contains(where: { $0.seq > counter }) { return .cursorAhead }
            for position in known where position.mark != nil {
                guard position.matches(storedMark: try storedMark(position.seq, db: db)) else {
                    return .cursorFromAnotherHistory
                }
            }
            let prunedBelow =
                try db.queryFirst("SELECT value FROM meta WHERE key = 'marks_pruned_below'") {
                    $0.int64(0)
                } ?? 0
            for position in named where position.mark != nil {
                let stored = try storedMark(position.seq, db: db)
                guard position.matches(storedMark: stored) else { return .cursorFromAnotherHistory }
                // A marked cursor whose number's mark was pruned cannot be told to be of this
                // history: a restore may have forgotten it (seed 951: a purge after a restore let
                // a forgotten cursor skip a note sent again). Listing everything again is safe.
                if stored == nil, let mark = position.mark, mark > 0, position.seq < prunedBelow {
                    return .cursorExpired
                }
            }
            if let expiry = listingStart ?? since, expiry.seq < purgedSeq { return .cursorExpired }
            let columns = "note_id, version, updated_at, deleted, payload, seq, written_by, mark"
            var notes: [StoredNote]
            if let since {
                notes = try db.query(
                    """
                    SELECT \(columns) FROM notes WHERE account_id = ? AND seq > ?
                    ORDER BY seq LIMIT ?
                    """, account.rawValue, since.seq, limit + 1, map: Self.storedNote)
            } else {
                notes = try db.query(
                    """
                    SELECT \(columns) FROM notes WHERE account_id = ? AND deleted = 0
                    ORDER BY seq LIMIT ?
                    """, account.rawValue, limit + 1, map: Self.storedNote)
            }
            let hasMore = notes.count > limit
            if hasMore { notes.removeLast(notes.count - limit) }
            // An index range count over (account_id, seq): what is left after this page.
            var remaining = 0
            if hasMore, let after = notes.last?.seq {
                remaining =
                    try db.queryFirst(
                        "SELECT COUNT(*) FROM notes WHERE account_id = ? AND seq > ?"
                            + (since == nil ? " AND deleted = 0" : ""), account.rawValue, after
                    ) { Int($0.int64(0)) } ?? 0
            }
            let latest =
                try db.queryFirst(
                    "SELECT COALESCE(MAX(seq), 0) FROM notes WHERE account_id = ?", account.rawValue
                ) { $0.int64(0) } ?? 0
            return .page(
                notes: notes, hasMore: hasMore, highest: try position(max(latest, purgedSeq), db: db),
                last: try notes.last.map { try position($0.seq, db: db) }, remaining: remaining)
        }
    }

    // MARK: - Retention

    /// Every batch of ``purgeTombstoneBatch(olderThan:limit:)`` until none is left, each its
    /// own transaction.
    public func purgeTombstones(olderThan cutoff: Date) throws -> Int {
        var purged = 0
        var batch: PurgeBatch
        repeat {
            batch = try purgeTombstoneBatch(olderThan: cutoff, limit: Self.purgeBatchSize)
            purged += batch.tombstones
        } while batch.mayHaveMore
        return purged
    }

    /// The batch ``purgeTombstones(olderThan:)`` works in.
    static let purgeBatchSize = 1_000

    // MARK: - Internals

    func open() throws -> SQLiteConnection {
        guard let connection else { throw ServerStorageError.closed }
        return connection
    }

    static func storedNote(_ row: SQLiteRow) -> StoredNote {
        StoredNote(
            id: row.text(0), version: row.int(1),
            updatedAt: Date(storedMilliseconds: row.int64(2)), deleted: row.bool(3),
            payload: row.optionalText(4), seq: row.int64(5),
            writer: row.optionalInt(6).map { SessionID(Int64($0)) }, mark: row.int64(7))
    }
}
