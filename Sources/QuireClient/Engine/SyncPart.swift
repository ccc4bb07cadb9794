import Foundation

/// One kind of data a device syncs on its own feed (notes, trips): what the ``SyncController``
/// and ``DeviceSync`` run and watch, so both kinds share one controller, one set of triggers, one
/// backoff and one status.
public protocol SyncPart: Sendable {
    /// Pushes what waits here, then pulls. Never throws: the failure is in the report. A run
    /// asked for while one is going joins it.
    func syncOnce() async -> SyncReport
    /// Cancels the run in flight, if any; what was being sent stays queued, to be resent unchanged.
    func cancelCurrentRun() async
    /// Replays the number of local changes waiting to be sent, then each new value: the "after
    /// each edit" trigger.
    func pendingCount() -> AsyncStream<Int>
    /// Publishes the pending count again when another process of this device committed since
    /// the last call: its edits must be pushed too.
    func noticeChangesFromOtherProcesses() async throws
    /// Holds a request on the feed open for up to `wait` seconds: true when another device's
    /// change waits to be pulled.
    /// - Throws: ``SyncPartUnavailable`` when the server has no such feed (stop asking), or the
    ///   request's error.
    func remoteChangeArrived(wait: Int) async throws -> Bool
}

/// The server has no feed for this part (a server that keeps no trips): the long-poll stops.
public struct SyncPartUnavailable: Error, Hashable, Sendable {
    public init() {}
}

/// The notes as a ``SyncPart``: their engine, their database and their API.
public struct NotesSyncPart: SyncPart {
    public let engine: NotesSyncEngine
    public let records: SyncRecords
    public let api: NotesAPI

    public init(engine: NotesSyncEngine, records: SyncRecords, api: NotesAPI) {
        self.engine = engine
        self.records = records
        self.api = api
    }

    public func syncOnce() async -> SyncReport { await engine.syncOnce() }
    public func cancelCurrentRun() async { await engine.cancelCurrentRun() }
    public func pendingCount() -> AsyncStream<Int> { records.pendingCount() }
    public func noticeChangesFromOtherProcesses() async throws { try await records.noticeChangesFromOtherProcesses() }

    public func remoteChangeArrived(wait: Int) async throws -> Bool {
        let cursor = try await records.cursor()
        return try await !api.changes(since: cursor, limit: 1, wait: wait).changes.isEmpty
    }
}

/// The trips as a ``SyncPart``: their engine and their database.
public struct TripsSyncPart: SyncPart {
    public let engine: TripsSyncEngine
    public let database: TripsDatabase

    public init(engine: TripsSyncEngine, database: TripsDatabase) {
        self.engine = engine
        self.database = database
    }

    public func syncOnce() async -> SyncReport { await engine.syncOnce() }
    public func cancelCurrentRun() async { await engine.cancelCurrentRun() }
    public func pendingCount() -> AsyncStream<Int> { database.pendingCount() }
    public func noticeChangesFromOtherProcesses() async throws { try await database.noticeChangesFromOtherProcesses() }

    public func remoteChangeArrived(wait: Int) async throws -> Bool {
        do {
            return try await engine.remoteChangeArrived(wait: wait)
        } catch let error as NotesAPIError where TripsSyncEngine.serverKeepsNoTrips(error) {
            throw SyncPartUnavailable()
        }
    }
}
