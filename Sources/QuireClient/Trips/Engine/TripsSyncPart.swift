import Foundation

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
