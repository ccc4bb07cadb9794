import Foundation
import QuireServer

/// The server's real storage, wrapped to witness every write it applies: which idempotency key
/// (change id) produced each new version of each note. The "at most once" check reads it.
final class RecordingStorage: ServerStorage, @unchecked Sendable {
    // `applied` and `account` are guarded by `lock`; `inner` is an actor.
    private let inner: SQLiteServerStorage
    private let lock = NSLock()
    private var applied: [AppliedWrite] = []
    private var knownAccount: AccountID?

    init(inner: SQLiteServerStorage) {
        self.inner = inner
    }

    /// Every write that committed a new change to the feed, in commit order.
    var appliedWrites: [AppliedWrite] { lock.withLock { applied } }

    /// The one account the simulation creates.
    var account: AccountID? { lock.withLock { knownAccount } }

    /// Every note of the account, tombstones included, in `seq` order.
    func allNotes() async throws -> [StoredNote] {
        guard let account else { return [] }
        guard
            case .page(let notes, _, _) = try await inner.changes(
                account: account, since: 0, limit: 100_000)
        else { return [] }
        return notes
    }

    // MARK: - ServerStorage

    func createAccount(
        username: String, publicID: String, credentials: AccountCredentials, now: Date
    ) async throws -> AccountID {
        let account = try await inner.createAccount(
            username: username, publicID: publicID, credentials: credentials, now: now)
        lock.withLock { knownAccount = account }
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

    func createSession(
        account: AccountID, deviceName: String, tokens: SessionTokenHashes, now: Date
    ) async throws -> SessionID {
        try await inner.createSession(account: account, deviceName: deviceName, tokens: tokens, now: now)
    }

    func session(accessHash: String) async throws -> AuthenticatedSession? {
        try await inner.session(accessHash: accessHash)
    }

    func refreshSession(refreshHash: String, replacement: SessionTokenHashes) async throws
        -> RefreshOutcome
    {
        try await inner.refreshSession(refreshHash: refreshHash, replacement: replacement)
    }

    func revokeSession(_ session: SessionID) async throws {
        try await inner.revokeSession(session)
    }

    func serverSecret() async throws -> Data {
        try await inner.serverSecret()
    }

    func write(
        _ write: NoteWrite, account: AccountID, writer: SessionID?, idempotency: IdempotencyKey,
        now: Date, record: @Sendable (NoteWriteOutcome) -> RecordedResponse?
    ) async throws -> WriteResult {
        let result = try await inner.write(
            write, account: account, writer: writer, idempotency: idempotency, now: now,
            record: record)
        if case .applied(let outcome) = result, outcome.changedFeed {
            let noteID: String
            switch write {
            case .put(let id, _, _), .delete(let id, _): noteID = id
            }
            lock.withLock {
                applied.append(AppliedWrite(noteID: noteID, changeID: idempotency.key))
            }
        }
        return result
    }

    func changes(account: AccountID, since: Int64?, limit: Int) async throws -> ChangesResult {
        try await inner.changes(account: account, since: since, limit: limit)
    }

    func changes(
        account: AccountID, continuingFullListingAfter since: Int64, listingStart: Int64,
        limit: Int
    ) async throws -> ChangesResult {
        try await inner.changes(
            account: account, continuingFullListingAfter: since, listingStart: listingStart,
            limit: limit)
    }

    func purgeTombstones(olderThan cutoff: Date) async throws -> Int {
        try await inner.purgeTombstones(olderThan: cutoff)
    }

    func close() async {
        await inner.close()
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
