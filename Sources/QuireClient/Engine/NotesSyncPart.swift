import Foundation

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
