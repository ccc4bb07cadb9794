import Foundation
import QuireClient
import QuireDomain

/// A deliberately broken device for ``SimulationConfig/Sabotage/dropLocalTextOnConflict``: the
/// real database, except that every conflict is settled by taking the server's copy, dropping the
/// local text. It exists only to prove that the "nothing lost" check fails when text is lost.
struct LossySyncRecords: SyncRecords {
    let database: NotesDatabase

    func settleConflict(_ settlement: ConflictSettlement) async throws {
        var lossy = settlement
        lossy.outcome = .takeServer
        lossy.copy = nil
        try await database.settleConflict(lossy)
    }

    // MARK: - Forwarded unchanged

    func pendingCount() -> AsyncStream<Int> { database.pendingCount() }
    func noticeChangesFromOtherProcesses() async throws {
        try await database.noticeChangesFromOtherProcesses()
    }
    func nextChanges(limit: Int, skipping: Set<ChangeID>) async throws -> [SentChange] {
        try await database.nextChanges(limit: limit, skipping: skipping)
    }
    func freezePayload(_ change: ChangeID, payload: String) async throws -> String {
        try await database.freezePayload(change, payload: payload)
    }
    func complete(_ change: ChangeID, version: Int?, tag: String?, position: Cursor?, replayed: Bool)
        async throws
    {
        try await database.complete(change, version: version, tag: tag, position: position, replayed: replayed)
    }
    func markRefused(_ change: ChangeID, reason: String) async throws {
        try await database.markRefused(change, reason: reason)
    }
    func recordFailedAttempt(_ change: ChangeID, error: String) async throws -> Int {
        try await database.recordFailedAttempt(change, error: error)
    }
    func deviceLabel() async throws -> DeviceLabel { try await database.deviceLabel() }
    func reissue(_ change: ChangeID) async throws -> ChangeID {
        try await database.reissue(change)
    }
    func rebaseOnForgetfulServer(_ change: ChangeID, server: RemoteNote) async throws {
        try await database.rebaseOnForgetfulServer(change, server: server)
    }
    func conflictContext(for change: ChangeID) async throws -> ConflictContext {
        try await database.conflictContext(for: change)
    }
    func apply(_ changes: [RemoteNote], cursor: Cursor, account: AccountID) async throws -> Int {
        try await database.apply(changes, cursor: cursor, account: account)
    }
    func apply(_ changes: [RemoteNote], confirming own: [ListedOwnWrite], cursor: Cursor, account: AccountID)
        async throws -> Int?
    {
        try await database.apply(changes, confirming: own, cursor: cursor, account: account)
    }
    func cursor() async throws -> Cursor? { try await database.cursor() }
    func ackedPositions() async throws -> AckedPositions { try await database.ackedPositions() }
    func positionsVerified(through cursor: Cursor?) async throws {
        try await database.positionsVerified(through: cursor)
    }
    func bindAccount(_ account: AccountID?) async throws { try await database.bindAccount(account) }
    func boundAccount() async throws -> AccountID? { try await database.boundAccount() }
    func beginFullResync(_ reason: FullResyncReason) async throws {
        try await database.beginFullResync(reason)
    }
    func finishFullResync() async throws -> Int { try await database.finishFullResync() }
    func runRecord() async throws -> SyncRunRecord { try await database.runRecord() }
    func recordRun(_ record: SyncRunRecord) async throws { try await database.recordRun(record) }
}
