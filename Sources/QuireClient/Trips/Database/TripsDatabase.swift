import Foundation
import QuireSQLite
import QuireTrips

/// The device's trips database (seed 002 §1): trips and their keys, the server-confirmed value of
/// every field with its revision, the outbox of waiting field changes, conflicts and cursors, in
/// its own SQLite file beside the notes (`trips.sqlite`). Split by concern: `+Editing` (what the
/// person does), `+Reading`, `+Push`, `+Pull`, `+Conflicts`.
///
/// The file's one connection and one writer. Every method that writes runs one transaction, which
/// rolls back entirely if anything in it throws; after it commits, the streams publish. A local
/// edit writes its outbox row in the same transaction, so an edit the screen shows is one the
/// device will send. Reading a field gives the server's value with the waiting change on top, so
/// a pull never makes an unsent edit jump back. Actor methods never suspend mid-transaction, so a
/// caller's cancellation cannot interrupt a write once it has started.
public actor TripsDatabase: SyncRunRecords {
    let connection: SQLiteConnection
    let now: @Sendable () -> Date
    /// `PRAGMA data_version` at the last look for other processes' commits.
    var lastDataVersion: Int?

    var listSubscribers = StreamSubscribers<[TripSummary]>(deduplicates: true)
    var tripSubscribers: [TripID: StreamSubscribers<TripRecord?>] = [:]
    var pendingSubscribers = StreamSubscribers<Int>(deduplicates: true)
    var statusSubscribers = StreamSubscribers<TripsStatusRecord>(deduplicates: true)

    /// Opens the database at `fileURL`, creating it (and its folder) if needed, in WAL mode with
    /// `synchronous=FULL`, and brings its schema up to date.
    /// - Throws: `SQLiteError` when the file cannot be opened, is not a database, or was written by
    ///   a newer schema.
    public init(fileURL: URL, now: @escaping @Sendable () -> Date = Date.init) throws {
        try FileManager.default.createDirectory(
            at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let connection = try SQLiteConnection(path: fileURL.path)
        try SQLiteMigrator(TripsSchema.migrations).migrate(connection)
        self.connection = connection
        self.now = now
        self.lastDataVersion = try connection.queryFirst("PRAGMA data_version") { $0.int(0) }
    }

    deinit {
        listSubscribers.finishAll()
        for var subscribers in tripSubscribers.values { subscribers.finishAll() }
        pendingSubscribers.finishAll()
        statusSubscribers.finishAll()
    }

    // MARK: - Writing

    /// Runs `body` as one transaction and publishes the streams after the commit.
    ///
    /// If `body` throws, the transaction is rolled back, nothing is published and the error is
    /// rethrown. Inside another write it is a savepoint of that write, which publishes once, after
    /// its own commit.
    @discardableResult
    func write<T>(_ body: () throws -> T) throws -> T {
        let outermost = !connection.isInTransaction
        let result = try connection.transaction(body)
        if outermost { publish() }
        return result
    }

    /// Publishes every stream again if another connection (another process of this device)
    /// committed since the last look (`PRAGMA data_version`), so its edits are pushed too.
    public func noticeChangesFromOtherProcesses() throws {
        let version = try connection.queryFirst("PRAGMA data_version") { $0.int(0) }
        defer { lastDataVersion = version }
        guard version != lastDataVersion else { return }
        publish()
    }

    // MARK: - Publishing

    /// Recomputes each stream that has subscribers and yields it to them. Never throws: the write
    /// has committed. A stream whose value cannot be read finishes rather than show a stale state.
    func publish() {
        if !listSubscribers.isEmpty {
            do { listSubscribers.publish(try readTrips()) } catch { listSubscribers.finishAll() }
        }
        for (trip, var subscribers) in tripSubscribers {
            do { subscribers.publish(try readTrip(trip)) } catch { subscribers.finishAll() }
            tripSubscribers[trip] = subscribers.isEmpty ? nil : subscribers
        }
        if !pendingSubscribers.isEmpty {
            do { pendingSubscribers.publish(try readPendingCount()) } catch { pendingSubscribers.finishAll() }
        }
        if !statusSubscribers.isEmpty {
            do { statusSubscribers.publish(try readStatus()) } catch { statusSubscribers.finishAll() }
        }
    }

    // MARK: - Streams

    /// Replays the live trips, then each different list after a commit. Keeps only the newest
    /// unread value for a slow consumer; finishes when the consumer's task is cancelled.
    public nonisolated func tripList() -> AsyncStream<[TripSummary]> {
        stream { database, id, continuation in
            database.listSubscribers.register(id, continuation, current: try database.readTrips())
        }
    }

    /// Replays one trip (nil once it is gone or deleted), then each different value after a commit.
    /// Finishes like ``tripList()``.
    public nonisolated func tripUpdates(_ trip: TripID) -> AsyncStream<TripRecord?> {
        stream { database, id, continuation in
            var subscribers =
                database.tripSubscribers[trip] ?? StreamSubscribers<TripRecord?>(deduplicates: true)
            subscribers.register(id, continuation, current: try database.readTrip(trip))
            database.tripSubscribers[trip] = subscribers
        }
    }

    /// Replays the number of waiting field changes, then each different value: the sync
    /// controller's "something was edited" trigger. Finishes like ``tripList()``.
    public nonisolated func pendingCount() -> AsyncStream<Int> {
        stream { database, id, continuation in
            database.pendingSubscribers.register(id, continuation, current: try database.readPendingCount())
        }
    }

    /// Replays the trips' status (the engine's last run, the counts), then each different value.
    public nonisolated func statusRow() -> AsyncStream<TripsStatusRecord> {
        stream { database, id, continuation in
            database.statusSubscribers.register(id, continuation, current: try database.readStatus())
        }
    }

    private nonisolated func stream<Value: Sendable>(
        _ register:
            @escaping @Sendable (isolated TripsDatabase, UUID, AsyncStream<Value>.Continuation) throws
            -> Void
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        Task {
            do {
                try await register(self, id, continuation)
            } catch {
                continuation.finish()
            }
        }
        return stream
    }

    private func removeSubscriber(_ id: UUID) {
        listSubscribers.remove(id)
        for (trip, var subscribers) in tripSubscribers {
            subscribers.remove(id)
            tripSubscribers[trip] = subscribers.isEmpty ? nil : subscribers
        }
        pendingSubscribers.remove(id)
        statusSubscribers.remove(id)
    }
}
