import Foundation
import QuireDomain
import QuireSQLite

/// The device's notes database (seed 000 card 5): notes, tombstones, versions, pending changes, the
/// cursor and the sync status row, in one SQLite file.
///
/// The file's one connection and one writer. Every method that writes runs one transaction, which
/// rolls back entirely if anything in it throws; after it commits, the streams it affects publish
/// (computed once, yielded to every subscriber). Actor methods never suspend mid-transaction, so a
/// caller's cancellation cannot interrupt a write once it has started.
public actor NotesDatabase: NoteRecords, SyncStatusRecords, SyncRecords, ConflictRecords {
    /// What a committed transaction changed, so only the streams that show it are recomputed.
    struct Touched: OptionSet {
        let rawValue: Int
        static let notes = Touched(rawValue: 1 << 0)
        static let changes = Touched(rawValue: 1 << 1)
        static let status = Touched(rawValue: 1 << 2)
        static let all: Touched = [.notes, .changes, .status]
    }

    let connection: SQLiteConnection
    let now: @Sendable () -> Date
    /// The durability of user writes (saves, deletes, resolutions); sync bookkeeping uses less.
    let durability: SQLiteConnection.Durability
    /// The connection's `PRAGMA synchronous` right now.
    private var synchronous: SQLiteConnection.Durability
    /// `PRAGMA data_version` at the last look for other processes' commits.
    var lastDataVersion: Int?
    /// The settings to restore once a pull's large pages are stored; nil outside bulk mode.
    private var bulkPull: BulkPull?

    var noteSubscribers = StreamSubscribers<[NoteRecord]>(deduplicates: false)
    var summarySubscribers = StreamSubscribers<[NoteRecord]>(deduplicates: false)
    var windowSubscribers = WindowSubscribers<[NoteRecord]>()
    var statusSubscribers = StreamSubscribers<SyncStatusRecord>(deduplicates: true)
    var pendingSubscribers = StreamSubscribers<Int>(deduplicates: true)

    /// Test hook: thrown by `saveNote` between the note write and the change write, to prove the
    /// two land together or not at all.
    package var faultAfterNoteWrite: (any Error)?

    /// Opens the database at `fileURL`, creating it (and its folder) if needed, in WAL mode with
    /// `synchronous=FULL` (a commit survives a killed process and a power cut), and brings its
    /// schema up to date.
    ///
    /// - Parameter now: the clock for `updated_at` and change timestamps.
    /// - Throws: `SQLiteError` when the file cannot be opened, is not a database, or was written by
    ///   a newer schema.
    public init(fileURL: URL, now: @escaping @Sendable () -> Date = Date.init) throws {
        try self.init(fileURL: fileURL, now: now, durability: .full)
    }

    /// Opens with a chosen durability: only for tests that measure volume, not crash safety
    /// (`.normal` skips the fsync per commit, which dominates 10,000 one-save transactions).
    package init(
        fileURL: URL, now: @escaping @Sendable () -> Date, durability: SQLiteConnection.Durability
    ) throws {
        try FileManager.default.createDirectory(
            at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let connection = try SQLiteConnection(
            path: fileURL.path, durability: durability, pageSize: NotesSchema.pageSize)
        try SQLiteMigrator(NotesSchema.migrations).migrate(connection)
        self.connection = connection
        self.now = now
        self.durability = durability
        self.synchronous = durability
        // From the first moment: a commit by another process right after this open must count.
        self.lastDataVersion = try connection.queryFirst("PRAGMA data_version") { $0.int(0) }
    }

    deinit {
        // Consumers would otherwise wait forever on streams nobody can feed any more.
        noteSubscribers.finishAll()
        summarySubscribers.finishAll()
        windowSubscribers.finishAll()
        statusSubscribers.finishAll()
        pendingSubscribers.finishAll()
    }

    package func setFaultAfterNoteWrite(_ fault: (any Error)?) {
        faultAfterNoteWrite = fault
    }

    /// The connection's `PRAGMA wal_autocheckpoint`, for tests of ``BulkPull``.
    package func walAutocheckpointPages() throws -> Int {
        try connection.queryFirst("PRAGMA wal_autocheckpoint") { $0.int(0) } ?? 0
    }

    /// Open streams per kind, for tests that check a cancelled consumer is let go.
    package func subscriberCounts() -> (notes: Int, status: Int, pending: Int) {
        (noteSubscribers.count, statusSubscribers.count, pendingSubscribers.count)
    }

    // MARK: - Writing

    /// Runs `body` as one transaction; after the commit, publishes what `body` marked as touched.
    ///
    /// If `body` throws, the transaction is rolled back, nothing is published and the error is
    /// rethrown.
    func write<T>(_ body: (inout Touched) throws -> T) throws -> T {
        try endBulkPull()
        try setSynchronous(.full)
        return try transact(body)
    }

    private func transact<T>(_ body: (inout Touched) throws -> T) throws -> T {
        var touched: Touched = []
        let result = try connection.transaction { try body(&touched) }
        publish(touched)
        return result
    }

    /// ``write(_:)`` for sync bookkeeping (freezing and completing changes, applying pulls,
    /// settling conflicts, the status row), committed with `synchronous=NORMAL`.
    ///
    /// Such a commit survives a killed process (promise 1 is about those), but a power cut may take
    /// back the last ones, and that is safe by design: a change that is no longer marked sent is
    /// sent again with the same change id and answered with the first answer; a page no longer
    /// applied is pulled again. The next user save (`synchronous=FULL`) makes them durable too, as
    /// WAL commits are ordered. It saves two disk flushes per change sent.
    func bookkeepingWrite<T>(_ body: (inout Touched) throws -> T) throws -> T {
        try endBulkPull()
        try setSynchronous(.normal)
        return try transact(body)
    }

    /// ``bookkeepingWrite(_:)`` for a pulled page of `notes` notes: a page of at least
    /// ``BulkPull/pageSize`` notes puts the connection in bulk mode until the next other write
    /// (``BulkPull`` says what changes; no commit is any less durable).
    func pageWrite<T>(notes: Int, _ body: (inout Touched) throws -> T) throws -> T {
        if notes >= BulkPull.pageSize, bulkPull == nil {
            bulkPull = try BulkPull.begin(on: connection)
        }
        try setSynchronous(.normal)
        return try transact(body)
    }

    /// Leaves bulk mode, if on: the WAL's pages are copied back (a passive checkpoint) and the
    /// connection's settings restored.
    private func endBulkPull() throws {
        guard let bulk = bulkPull, !connection.isInTransaction else { return }
        bulkPull = nil
        try bulk.end(on: connection)
    }

    /// Sets `PRAGMA synchronous` when it differs from the connection's current setting.
    private func setSynchronous(_ mode: SQLiteConnection.Durability) throws {
        let wanted = durability == .full ? mode : durability
        guard wanted != synchronous else { return }
        try connection.execute("PRAGMA synchronous=\(wanted.rawValue)")
        synchronous = wanted
    }

    // MARK: - Publishing

    /// Recomputes each affected stream that has subscribers and yields it to all of them.
    ///
    /// Never throws: the write has committed and must not be reported as failed. If a stream's
    /// value cannot be read, its streams finish rather than show a stale state as current; their
    /// consumers subscribe again.
    func publish(_ touched: Touched) {
        guard !touched.isEmpty else { return }
        if !touched.isDisjoint(with: [.notes, .changes]), !noteSubscribers.isEmpty {
            do { noteSubscribers.publish(try readNoteRows()) } catch { noteSubscribers.finishAll() }
        }
        if !touched.isDisjoint(with: [.notes, .changes]), !summarySubscribers.isEmpty {
            do { summarySubscribers.publish(try readNoteSummaryRows()) } catch {
                summarySubscribers.finishAll()
            }
        }
        if !touched.isDisjoint(with: [.notes, .changes]), !windowSubscribers.isEmpty {
            windowSubscribers.publish { try readNoteSummaryRows(first: $0) }
        }
        if !statusSubscribers.isEmpty {
            do { statusSubscribers.publish(try readStatus()) } catch {
                statusSubscribers.finishAll()
            }
        }
        if touched.contains(.changes), !pendingSubscribers.isEmpty {
            do { pendingSubscribers.publish(try readPendingCount()) } catch {
                pendingSubscribers.finishAll()
            }
        }
    }

    // MARK: - Streams

    /// Replays the live notes, newest first, then again after every commit that touched notes or
    /// pending changes. Keeps only the newest unread value for a slow consumer. Finishes when the
    /// consumer's task is cancelled, or when the database is released.
    public nonisolated func noteRows() -> AsyncStream<[NoteRecord]> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: [NoteRecord].self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        Task { await self.registerNoteSubscriber(id, continuation) }
        return stream
    }

    /// Replays the live notes as summaries (bodies cut to a preview), newest first, then again
    /// after every commit that touched notes or pending changes. Finishes like `noteRows()`.
    public nonisolated func noteSummaryRows() -> AsyncStream<[NoteRecord]> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: [NoteRecord].self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        Task { await self.registerSummarySubscriber(id, continuation) }
        return stream
    }

    /// Replays the first `count` + 1 live notes as summaries, newest first (the row beyond `count`
    /// says more follow), then again after every commit that touched notes or pending changes.
    /// Reads only those rows, by the list's index. Finishes like `noteRows()`.
    public nonisolated func noteSummaryRows(first count: Int) -> AsyncStream<[NoteRecord]> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: [NoteRecord].self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        let size = max(1, count)
        Task { await self.registerWindowSubscriber(id, size: size, continuation) }
        return stream
    }

    /// Replays the status row with its counts, then each different value after a commit.
    /// Finishes like `noteRows()`.
    public nonisolated func statusRow() -> AsyncStream<SyncStatusRecord> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SyncStatusRecord.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        Task { await self.registerStatusSubscriber(id, continuation) }
        return stream
    }

    /// Replays the number of pending changes, then each different value after a commit: the sync
    /// engine's "something was saved" trigger. Finishes like `noteRows()`.
    public nonisolated func pendingCount() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Int.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        Task { await self.registerPendingSubscriber(id, continuation) }
        return stream
    }

    private func registerNoteSubscriber(
        _ id: UUID, _ continuation: AsyncStream<[NoteRecord]>.Continuation
    ) {
        do {
            noteSubscribers.register(id, continuation, current: try readNoteRows())
        } catch {
            continuation.finish()
        }
    }

    private func registerSummarySubscriber(
        _ id: UUID, _ continuation: AsyncStream<[NoteRecord]>.Continuation
    ) {
        do {
            summarySubscribers.register(id, continuation, current: try readNoteSummaryRows())
        } catch {
            continuation.finish()
        }
    }

    private func registerWindowSubscriber(
        _ id: UUID, size: Int, _ continuation: AsyncStream<[NoteRecord]>.Continuation
    ) {
        do {
            windowSubscribers.register(
                id, size: size, continuation, current: try readNoteSummaryRows(first: size))
        } catch {
            continuation.finish()
        }
    }

    private func registerStatusSubscriber(
        _ id: UUID, _ continuation: AsyncStream<SyncStatusRecord>.Continuation
    ) {
        do {
            statusSubscribers.register(id, continuation, current: try readStatus())
        } catch {
            continuation.finish()
        }
    }

    private func registerPendingSubscriber(
        _ id: UUID, _ continuation: AsyncStream<Int>.Continuation
    ) {
        do {
            pendingSubscribers.register(id, continuation, current: try readPendingCount())
        } catch {
            continuation.finish()
        }
    }

    private func removeSubscriber(_ id: UUID) {
        noteSubscribers.remove(id)
        summarySubscribers.remove(id)
        windowSubscribers.remove(id)
        statusSubscribers.remove(id)
        pendingSubscribers.remove(id)
    }
}
