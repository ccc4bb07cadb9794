import Foundation
import QuireServer

/// The server's real storage, wrapped to witness every write it applies: which idempotency key
/// (change id) produced each new version of each note, and which texts it stored. The "at most
/// once" check and the history ledger read them.
final class RecordingStorage: ServerStorage, @unchecked Sendable {
    // `applied`, `acknowledged` and `account` are guarded by `lock`; `inner` is an actor.
    let inner: SQLiteServerStorage
    let lock = NSLock()
    private var applied: [AppliedWrite] = []
    /// The texts the server stored for the simulation's account, in commit order, less those of
    /// notes whose tombstones were purged since (their history went with them).
    var acknowledged: [AcknowledgedText] = []
    /// The sabotage ``SimulationConfig/Sabotage/serverForgetsHistory``. Set once, before the
    /// world runs.
    nonisolated(unsafe) var forgetsHistory = false
    /// The op ids of the trip requests the server decided (not replays), in commit order.
    var appliedTripRequests: [String] = []
    /// Trip ops requests applied from an account whose role could not change the trip.
    var recordedRoleViolations: [String] = []
    /// The sabotage ``SimulationConfig/Sabotage/viewersMayEdit``: the username whose viewer ops
    /// the server lets through. Set once, before the world runs.
    nonisolated(unsafe) var viewerWhoMayEdit: String?
    private var knownAccount: AccountID?
    // `backups` is guarded by `lock` too.

    init(inner: SQLiteServerStorage) {
        self.inner = inner
    }

    /// Every write that committed a new change to the feed, in commit order.
    var appliedWrites: [AppliedWrite] { lock.withLock { applied } }

    /// Every text the server stored for the simulation's account and still keeps somewhere (the
    /// note, its history or the trash), in commit order.
    var acknowledgedTexts: [AcknowledgedText] { lock.withLock { acknowledged } }

    /// The one account the simulation creates.
    var account: AccountID? { lock.withLock { knownAccount } }

    /// Every note of the account, tombstones included, in `seq` order.
    func allNotes() async throws -> [StoredNote] {
        guard let account else { return [] }
        return try await inner.allNotes(account: account)
    }

    // MARK: - ServerStorage

    func createAccount(
        username: String, publicID: String, credentials: AccountCredentials,
        recovery: RecoveryCredentials?, now: Date
    ) async throws -> AccountID {
        let account = try await inner.createAccount(
            username: username, publicID: publicID, credentials: credentials, recovery: recovery,
            now: now)
        // The simulation's own account is the first; a companion's account comes after it.
        lock.withLock { if knownAccount == nil { knownAccount = account } }
        return account
    }

    func account(username: String) async throws -> StoredAccount? {
        try await inner.account(username: username)
    }

    func account(id: AccountID) async throws -> StoredAccount? {
        try await inner.account(id: id)
    }

    func changeCredentials(
        account: AccountID, expectedAuthKeyHash: Data, to credentials: AccountCredentials,
        keeping session: SessionID
    ) async throws -> Bool {
        try await inner.changeCredentials(
            account: account, expectedAuthKeyHash: expectedAuthKeyHash, to: credentials,
            keeping: session)
    }

    func recoverCredentials(
        account: AccountID, expectedRecoveryAuthHash: Data, to credentials: AccountCredentials,
        deviceName: String, tokens: SessionTokenHashes, now: Date
    ) async throws -> SessionID? {
        try await inner.recoverCredentials(
            account: account, expectedRecoveryAuthHash: expectedRecoveryAuthHash, to: credentials,
            deviceName: deviceName, tokens: tokens, now: now)
    }

    func replaceRecovery(
        account: AccountID, expectedAuthKeyHash: Data, with recovery: RecoveryCredentials
    ) async throws -> Bool {
        try await inner.replaceRecovery(
            account: account, expectedAuthKeyHash: expectedAuthKeyHash, with: recovery)
    }

    func createSession(
        account: AccountID, deviceName: String, tokens: SessionTokenHashes, now: Date
    ) async throws -> SessionID {
        try await inner.createSession(account: account, deviceName: deviceName, tokens: tokens, now: now)
    }

    func session(accessHash: String) async throws -> AuthenticatedSession? {
        try await inner.session(accessHash: accessHash)
    }

    func refreshSession(
        refreshHash: String, replacement: SessionTokenHashes, expiry: SessionExpiry
    ) async throws -> RefreshOutcome {
        try await inner.refreshSession(refreshHash: refreshHash, replacement: replacement, expiry: expiry)
    }

    func sessions(account: AccountID, expiry: SessionExpiry) async throws -> [StoredSession] {
        try await inner.sessions(account: account, expiry: expiry)
    }

    func revokeSession(_ session: SessionID) async throws {
        try await inner.revokeSession(session)
    }

    func serverSecret() async throws -> Data {
        try await inner.serverSecret()
    }

    func write(
        _ write: NoteWrite, account: AccountID, writer: SessionID?, idempotency: IdempotencyKey,
        quota: NoteQuota, now: Date, record: @escaping @Sendable (NoteWriteOutcome) -> RecordedAnswer?
    ) async throws -> WriteResult {
        let result = try await inner.write(
            write, account: account, writer: writer, idempotency: idempotency, quota: quota, now: now,
            record: record)
        if case .applied(let outcome) = result, outcome.changedFeed {
            let noteID: String
            switch write {
            case .put(let id, _, _), .delete(let id, _): noteID = id
            }
            lock.withLock {
                applied.append(AppliedWrite(noteID: noteID, changeID: idempotency.key))
                if case .put(let id, let payload, _) = write, account == knownAccount {
                    acknowledged.append(AcknowledgedText(noteID: id, payload: payload))
                }
            }
        }
        return result
    }

    func changes(account: AccountID, since: FeedPosition?, known: [FeedPosition], limit: Int) async throws
        -> ChangesResult
    {
        try await inner.changes(account: account, since: since, known: known, limit: limit)
    }

    func changes(
        account: AccountID, continuingFullListingAfter since: FeedPosition,
        listingStart: FeedPosition, known: [FeedPosition], limit: Int
    ) async throws -> ChangesResult {
        try await inner.changes(
            account: account, continuingFullListingAfter: since, listingStart: listingStart,
            known: known, limit: limit)
    }

    /// Purges. The witness keeps the purged notes' writes: an id written again goes on from its
    /// last version, so its versions still count every write it ever had. Their texts leave the
    /// history ledger: a purged tombstone's history is gone by design (past retention).
    func purgeTombstones(olderThan cutoff: Date) async throws -> Int {
        let before = Set(try await allNotes().map(\.id))
        let purged = try await inner.purgeTombstones(olderThan: cutoff)
        let gone = before.subtracting(try await allNotes().map(\.id))
        lock.withLock { acknowledged.removeAll { gone.contains($0.noteID) } }
        return purged
    }

    func close() async {
        await inner.close()
    }

    // MARK: - Backups

    /// What the backup at each path holds: how many applied writes and trip requests, and the
    /// texts it keeps.
    private var backups: [String: (writes: Int, tripRequests: Int, texts: [AcknowledgedText])] = [:]

    /// Backs the server up to `path`, remembering what it had applied by then.
    func backUp(to path: String) async throws {
        let count = lock.withLock { (applied.count, appliedTripRequests.count, acknowledged) }
        try await inner.backUp(to: path)
        lock.withLock { backups[path] = count }
    }

    /// Restores the backup at `path`: the server forgets every write since, and so does the
    /// witness (a change applied again after the restore is applied once in this history).
    func restore(fromBackupAt path: String) async throws {
        try await inner.restore(fromBackupAt: path)
        lock.withLock {
            if let count = backups[path] {
                applied.removeLast(applied.count - count.writes)
                appliedTripRequests.removeLast(appliedTripRequests.count - count.tripRequests)
                acknowledged = count.texts
            }
        }
    }
}

/// One write the server applied: the note it changed and the change id it came with.
public struct AppliedWrite: Hashable, Sendable {
    public var noteID: String
    public var changeID: String

    public init(noteID: String, changeID: String) {
        self.noteID = noteID
        self.changeID = changeID
    }
}
