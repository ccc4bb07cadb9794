import Foundation

/// Copies a write-ahead log into its database file on a thread of its own, so the connection
/// that writes never stops to do it.
///
/// SQLite's automatic checkpoint runs inside the commit that passes its limit: that commit, and
/// on a server every request whose write it carries, waits while every page the log holds is
/// copied and the file is synced (docs/benchmarks.md, issue 13 part 6: a PUT's p99 at 64
/// connections was 66 to 82 ms with it, 14 to 15 ms with no checkpoint at all). Here the
/// writer's commit hook only reads the log's size. Past ``frames`` it wakes this thread, which
/// runs PASSIVE checkpoints through a connection of its own until the whole log is in the file;
/// the writer's next transaction then starts the log over. Should the thread fall behind (the
/// log holds ``fallbackFrames``), the writer checkpoints itself, as SQLite would have: the log
/// stays bounded whatever happens to the thread.
///
/// Durability is SQLite's own: a checkpoint only copies frames already committed (and synced,
/// with `synchronous=FULL`), and syncs the file before the log may be reused.
///
/// A checkpoint that fails (an I/O error, a full disk) loses nothing: every commit is still in
/// the log, which only grows until a later checkpoint succeeds, and the writer's commit stays
/// committed, so its write is not failed for it. The failure is counted (``Counts/failed``),
/// handed to `report` (the first, then the 2nd, 4th, 8th… so a lasting one does not flood the
/// log), and the checkpoint is tried again: by the thread at its next wake, by the writer at
/// its next commit past ``fallbackFrames``. One refused because another connection is
/// checkpointing (`SQLITE_BUSY`) is no failure; it is simply tried again.
public final class SQLiteBackgroundCheckpoint: @unchecked Sendable {
    /// How many checkpoints ran, and where.
    public struct Counts: Sendable, Equatable {
        /// On this type's thread.
        public var background = 0
        /// Inside a writer's commit, because the thread had fallen behind.
        public var byWriter = 0
        /// Checkpoints that failed, by either.
        public var failed = 0
        /// The last failure's error.
        public var lastFailure: String?
    }

    /// The log's size, in frames, that wakes the thread.
    public let frames: Int
    /// The log's size, in frames, at which the writer checkpoints itself.
    public let fallbackFrames: Int
    private let shared: Shared

    /// Opens a connection of its own to the file at `path`, starts its thread, and takes the
    /// place of `writer`'s automatic checkpoint (see ``SQLiteConnection/onCommit(_:)``). Throws
    /// ``SQLiteError`` when the file cannot be opened.
    ///
    /// `frames` defaults to 4,000 (16 MiB of 4 KiB pages: a checkpoint copies each page once
    /// however many commits rewrote it); `fallbackFrames` to four times `frames`. `report` is
    /// told of failed checkpoints, on the thread that ran them.
    public convenience init(
        path: String, writer: SQLiteConnection, frames: Int = 4_000, fallbackFrames: Int? = nil,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        try self.init(
            path: path, writer: writer, frames: frames, fallbackFrames: fallbackFrames, report: report,
            checkpoint: { try $0.checkpoint() })
    }

    /// `checkpoint` runs each checkpoint on the connection given (a test makes it fail).
    init(
        path: String, writer: SQLiteConnection, frames: Int, fallbackFrames: Int?,
        report: @escaping @Sendable (String) -> Void,
        checkpoint: @escaping @Sendable (SQLiteConnection) throws -> SQLiteConnection.Checkpoint
    ) throws {
        self.frames = frames
        self.fallbackFrames = fallbackFrames ?? 4 * frames
        let connection = Owned(try SQLiteConnection(path: path, durability: .full))
        let shared = Shared(report: report, checkpoint: checkpoint)
        self.shared = shared
        let thread = Thread { Self.run(connection, shared) }
        thread.name = "quire-checkpoint"
        thread.start()
        let (wake, fallback) = (frames, self.fallbackFrames)
        writer.onCommit { [unowned writer] logFrames in
            if logFrames >= fallback {
                if shared.attempt(on: writer) != nil { shared.counted { $0.byWriter += 1 } }
            } else if logFrames >= wake {
                shared.wake()
            }
        }
    }

    deinit {
        shared.stop()
    }

    /// The checkpoints so far.
    public var counts: Counts { shared.counted { $0 } }

    /// Stops the thread and closes its connection, after the checkpoint it may be running.
    /// The writer's hook stays: a writer still committing checkpoints itself past
    /// ``fallbackFrames``.
    public func stop() {
        shared.stop()
    }

    /// The thread: waits to be woken, then checkpoints until the whole log is in the file (at
    /// most 8 passes: under steady writes the log keeps growing, and the next commit wakes it
    /// again).
    private static func run(_ connection: Owned<SQLiteConnection>, _ shared: Shared) {
        while shared.waitForWork() {
            for _ in 0..<8 {
                guard let done = shared.attempt(on: connection.value) else { break }
                shared.counted { $0.background += 1 }
                if done.copiedFrames >= done.logFrames { break }
            }
            shared.finished()
        }
        shared.exited()
    }

    /// What the writer's hook and the thread share, under one lock.
    private final class Shared: @unchecked Sendable {
        private let report: @Sendable (String) -> Void
        private let checkpoint: @Sendable (SQLiteConnection) throws -> SQLiteConnection.Checkpoint
        private let condition = NSCondition()
        private var wanted = false
        private var working = false
        private var stopping = false
        private var running = true
        private var counts = Counts()

        init(
            report: @escaping @Sendable (String) -> Void,
            checkpoint: @escaping @Sendable (SQLiteConnection) throws -> SQLiteConnection.Checkpoint
        ) {
            self.report = report
            self.checkpoint = checkpoint
        }

        /// One checkpoint on `connection`; nil when another connection was checkpointing, or
        /// when it failed (counted, and reported as the type says).
        func attempt(on connection: SQLiteConnection) -> SQLiteConnection.Checkpoint? {
            do {
                return try checkpoint(connection)
            } catch let error as SQLiteError where error.code & 0xFF == 5 {  // SQLITE_BUSY
                return nil
            } catch {
                let failed = counted { counts in
                    counts.failed += 1
                    counts.lastFailure = "\(error)"
                    return counts.failed
                }
                if failed & (failed - 1) == 0 {
                    report(
                        "copying the write-ahead log into the database file failed (\(failed) so far; "
                            + "nothing is lost, every commit stays in the log, which grows until a copy succeeds): \(error)"
                    )
                }
                return nil
            }
        }

        func wake() {
            condition.lock()
            defer { condition.unlock() }
            guard !wanted, !working else { return }
            wanted = true
            condition.broadcast()
        }

        /// Blocks until woken (true) or stopped (false).
        func waitForWork() -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while !wanted, !stopping { condition.wait() }
            guard !stopping else { return false }
            wanted = false
            working = true
            return true
        }

        func finished() {
            condition.lock()
            working = false
            condition.broadcast()
            condition.unlock()
        }

        func exited() {
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }

        func stop() {
            condition.lock()
            defer { condition.unlock() }
            stopping = true
            condition.broadcast()
            while running { condition.wait() }
        }

        func counted<T>(_ body: (inout Counts) -> T) -> T {
            condition.lock()
            defer { condition.unlock() }
            return body(&counts)
        }
    }
}

/// A value handed to another thread that alone uses it from then on.
private final class Owned<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
