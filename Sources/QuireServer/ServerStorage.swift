import Foundation

/// Where the server keeps accounts, sessions, notes and idempotency records.
///
/// `SQLiteServerStorage` is the embedded default; a PostgreSQL store conforms to the same protocol.
/// Every method is one transaction: it commits entirely or not at all. Each accepted change gets the
/// next value of one server-wide, strictly increasing sequence number (`seq`), assigned inside that
/// transaction, so the changes feed can be read in commit order from any cursor. Each number is
/// stored with a random mark drawn in the same transaction (a ``FeedPosition``), so a position
/// from a history the store no longer has (it was restored from an older backup) is recognised.
///
/// An account's numbers must be handed out in the order its changes commit, or a reader whose
/// cursor passed a number would never see a lower one that committed later. The SQLite store has
/// one writer; ``PostgresServerStorage``, with many, locks the account's row before it takes a
/// number, so an account's writers take theirs one after another.
public protocol ServerStorage: Sendable {
    // MARK: - Accounts and sessions

    /// Creates an account that signs in with `credentials`, and, when `recovery` is given, can
    /// reset its password with a recovery key. Throws ``ServerStorageError/usernameTaken(_:)``
    /// when the (lowercased) name exists.
    func createAccount(
        username: String, publicID: String, credentials: AccountCredentials,
        recovery: RecoveryCredentials?, now: Date
    ) async throws -> AccountID

    /// The account with this lowercased username that can sign in, or nil.
    func account(username: String) async throws -> StoredAccount?

    /// The account with this id that can sign in, or nil.
    func account(id: AccountID) async throws -> StoredAccount?

    /// Replaces the account's credentials when its auth-key hash is still `expectedAuthKeyHash`,
    /// and revokes every session of the account except `keeping`, in one transaction. Returns
    /// false (changing nothing) when the hash changed meanwhile: a concurrent password change won.
    func changeCredentials(
        account: AccountID, expectedAuthKeyHash: Data, to credentials: AccountCredentials,
        keeping session: SessionID
    ) async throws -> Bool

    /// Resets the account's password with its recovery key, in one transaction: when its recovery
    /// auth-key hash is still `expectedRecoveryAuthHash`, replaces its credentials (the recovery
    /// credentials stay), revokes every session of the account, and starts one session for
    /// `deviceName` holding `tokens`. Returns nil (changing nothing) when the hash changed
    /// meanwhile: the recovery key was replaced.
    func recoverCredentials(
        account: AccountID, expectedRecoveryAuthHash: Data, to credentials: AccountCredentials,
        deviceName: String, tokens: SessionTokenHashes, now: Date
    ) async throws -> SessionID?

    /// Makes or replaces the account's recovery credentials when its auth-key hash is still
    /// `expectedAuthKeyHash` (the password checked is still the current one), in one
    /// transaction. Returns false (changing nothing) otherwise. Sessions are not touched.
    func replaceRecovery(
        account: AccountID, expectedAuthKeyHash: Data, with recovery: RecoveryCredentials
    ) async throws -> Bool

    /// Starts a session for `account` holding `tokens`.
    func createSession(
        account: AccountID, deviceName: String, tokens: SessionTokenHashes, now: Date
    ) async throws -> SessionID

    /// The live session whose current access token has this SHA-256 hex hash, or nil (unknown,
    /// or revoked). The caller decides whether it has expired. Finding it marks the session's
    /// current pair as used, which ends the retry of its previous refresh token.
    func session(accessHash: String) async throws -> AuthenticatedSession?

    /// Rotates a session's tokens by its refresh token, in one transaction: the current refresh
    /// token is swapped for `replacement` (and remembered as the previous one, retriable until
    /// `replacement.replacedTokenRetryUntil`). The previous one, presented again before that
    /// time (compared with `replacement.issuedAt`) while the pair it was rotated into is unused,
    /// is a retry: the session takes `replacement` and the retry is spent. Presented otherwise,
    /// it revokes the session. See ``RefreshOutcome``. A session that `expiry` says has ended is
    /// `.unknown`, changing nothing; rotating or retrying records `replacement.issuedAt` as the
    /// session's last use.
    func refreshSession(
        refreshHash: String, replacement: SessionTokenHashes, expiry: SessionExpiry
    ) async throws -> RefreshOutcome

    /// The account's sessions that are neither revoked nor ended by `expiry`, oldest first.
    func sessions(account: AccountID, expiry: SessionExpiry) async throws -> [StoredSession]

    /// Revokes a session: its access and refresh tokens stop working. Revoking twice is harmless.
    func revokeSession(_ session: SessionID) async throws

    /// The server's random 32-byte secret, made once when the database was created (or migrated):
    /// the key of the kdf route's fake parameters for unknown usernames.
    func serverSecret() async throws -> Data

    // MARK: - Notes

    /// Applies one note write for `account` (made by session `writer`) unless its idempotency key was seen, in one transaction.
    ///
    /// A key seen before with the same fingerprint returns the recorded answer (`.replayed`); with
    /// another fingerprint, `.keyReused`; neither changes anything. Otherwise the write is decided
    /// against the note's current state and `record` is asked what to remember of its answer
    /// (``RecordedAnswer/of(_:)``, in the server): when it returns a record, it is stored with the
    /// key in the same transaction; when it returns nil (the server keeps only 2xx answers), the
    /// next send with that key is evaluated afresh.
    ///
    /// A put that would take the account past `quota` (more live notes, or more payload bytes)
    /// stores nothing and is `.quotaExceeded`, decided in the same transaction.
    func write(
        _ write: NoteWrite, account: AccountID, writer: SessionID?, idempotency: IdempotencyKey,
        quota: NoteQuota, now: Date, record: @escaping @Sendable (NoteWriteOutcome) -> RecordedAnswer?
    ) async throws -> WriteResult

    /// Applies several note writes for `account`, each exactly as ``write(_:account:writer:idempotency:now:record:)``
    /// would, in order; a store that can commits them as one transaction (one flush to disk).
    func writeBatch(
        _ writes: [(write: NoteWrite, idempotency: IdempotencyKey)], account: AccountID,
        writer: SessionID?, quota: NoteQuota, now: Date,
        record: @escaping @Sendable (NoteWriteOutcome) -> RecordedAnswer?
    ) async throws -> [WriteResult]

    /// Up to `limit` of the account's changes in `seq` order, read in one transaction.
    ///
    /// `since` nil is the first page of a full listing (a first sync or a resync): live notes
    /// only; its later pages are read with
    /// ``changes(account:continuingFullListingAfter:listingStart:limit:)``. Otherwise an
    /// incremental pull: every change, tombstones included, with `seq > since.seq`. `since` above
    /// the server's counter is `.cursorAhead`; with a mark other than the one stored for its
    /// number, `.cursorFromAnotherHistory` (a mark of nil, or a number with no stored mark, is not
    /// compared); below the account's purged sequence, `.cursorExpired`, in that order.
    ///
    /// `known` are positions of writes the reader's device had acknowledged (its pull cursor may
    /// come from before them): one above the counter is `.cursorAhead`, one with another mark than
    /// its number's, `.cursorFromAnotherHistory`; the server forgot that write.
    func changes(account: AccountID, since: FeedPosition?, known: [FeedPosition], limit: Int) async throws
        -> ChangesResult

    /// Up to `limit` changes after `since` that continue a full listing, read in one transaction.
    ///
    /// The same rows as ``changes(account:since:limit:)`` with that `since` (tombstones
    /// included, so a note an earlier page listed and that was deleted since then goes from the
    /// device), but the listing's own expiry rule: `.cursorExpired` only when the account's purged
    /// sequence passed `listingStart`, the account's feed position when the listing's first page
    /// was read (that page's `highestSeq`). Every tombstone purged up to there was written before
    /// the listing began, so its note was never listed and a device rebuilding its copy loses
    /// nothing by not seeing it; a purge past it may have removed the delete of a note an earlier
    /// page listed, and the device must start over. `since` or `listingStart` above the server's
    /// counter is `.cursorAhead`; either with another mark than its number's stored one,
    /// `.cursorFromAnotherHistory` (both are checked: a listing that began after a backup and one
    /// whose page ended after it each mix two histories once the backup is restored).
    ///
    /// No default: a store that answered with the incremental rule would leave a listing of
    /// several pages on an account with a purge below it unable to finish (and a default also
    /// wins over an actor's synchronous method when a wrapper calls it with `await`).
    func changes(
        account: AccountID, continuingFullListingAfter since: FeedPosition,
        listingStart: FeedPosition, known: [FeedPosition], limit: Int
    ) async throws -> ChangesResult

    /// Deletes tombstones (and idempotency records and the marks of sequence numbers) last changed
    /// before `cutoff` and raises each affected account's purged sequence, so incremental cursors
    /// older than the purge, and full listings that began before a purged tombstone was written,
    /// get `cursor_expired`. A cursor whose number lost its mark is no longer compared by mark.
    /// Returns the number of tombstones deleted.
    func purgeTombstones(olderThan cutoff: Date) async throws -> Int

    /// Releases the store. Later calls throw ``ServerStorageError/closed``.
    func close() async
}

/// The server's id of an account.
public struct AccountID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int64

    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    public var description: String { "account \(rawValue)" }
}

/// A note's row on the server: its current state, or its tombstone.
public struct StoredNote: Sendable, Equatable {
    /// Lowercase UUID text.
    public var id: String
    public var version: Int
    public var updatedAt: Date
    public var deleted: Bool
    public var payload: String?
    /// The server-wide sequence number of the change that produced this state.
    public var seq: Int64
    /// The session whose write produced this state, when known.
    public var writer: SessionID?
    /// The random mark of the write that produced this state (``FeedPosition/mark`` of `seq`),
    /// sent as the version's tag: with `version` it names this text in this server's history.
    /// 0 for a state written before marks were kept.
    public var mark: Int64

    public init(
        id: String, version: Int, updatedAt: Date, deleted: Bool, payload: String?, seq: Int64,
        writer: SessionID? = nil, mark: Int64 = 0
    ) {
        self.writer = writer
        self.mark = mark
        self.id = id
        self.version = version
        self.updatedAt = updatedAt
        self.deleted = deleted
        self.payload = payload
        self.seq = seq
    }
}

/// A change a client asks for.
public enum NoteWrite: Sendable, Equatable {
    /// Create or update; `base` nil for a note the client believes is new.
    case put(noteID: String, payload: String, base: BaseVersion?)
    case delete(noteID: String, base: BaseVersion)
}

/// What a write did to the note.
public enum NoteWriteOutcome: Sendable, Equatable {
    /// Created or updated (a tombstone revived) at this version, as the change at `position` of
    /// the feed; `previous` is the account's feed position just before it.
    case saved(version: Int, position: FeedPosition, previous: FeedPosition)
    /// Turned into a tombstone.
    case deleted
    /// A delete of a note that already is a tombstone: no conflict, nothing changed.
    case alreadyDeleted
    /// The base version is stale: the note's current state, or its tombstone. Nothing changed.
    /// `baseKnown`: whether the write's base is a version of this server's history (nil: cannot
    /// tell); false tells the writer its base text is no ancestor of this copy.
    case conflict(StoredNote, baseKnown: Bool? = nil)
    /// A delete of a note the account does not have. Nothing changed.
    case notFound
    /// A put that would pass the account's quota. Nothing changed.
    case quotaExceeded(NoteQuota.Limit)

    /// True when the write committed a new change to the feed.
    public var changedFeed: Bool {
        switch self {
        case .saved, .deleted: true
        case .alreadyDeleted, .conflict, .notFound, .quotaExceeded: false
        }
    }
}

/// A client's idempotency key and the fingerprint of the request it came with.
public struct IdempotencyKey: Sendable, Equatable {
    public var key: String
    /// SHA-256 hex of method, path, query and body.
    public var fingerprint: String

    public init(key: String, fingerprint: String) {
        self.key = key
        self.fingerprint = fingerprint
    }
}

/// An answer remembered with an idempotency key as its bytes, and replayed byte for byte.
public struct RecordedResponse: Sendable, Equatable {
    public var status: Int
    public var body: Data

    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

/// The result of ``ServerStorage/write(_:account:idempotency:now:record:)``.
public enum WriteResult: Sendable, Equatable {
    case applied(NoteWriteOutcome)
    case replayed(RecordedAnswer)
    case keyReused
}

/// The result of ``ServerStorage/changes(account:since:limit:)``.
public enum ChangesResult: Sendable, Equatable {
    /// `notes` in `seq` order; `hasMore` when more rows follow them; `highest` is the account's
    /// latest change or purge, whichever is later (sequence 0 for an account with neither), and
    /// `last` the position of the last of `notes` (nil when there are none), each with the mark
    /// stored for its number (0 when there is none). `remaining`: how many rows the same reading
    /// would still return after `notes` (0 on the last page), for a progress total.
    case page(notes: [StoredNote], hasMore: Bool, highest: FeedPosition, last: FeedPosition?, remaining: Int = 0)
    /// The cursor's number is above the server's counter.
    case cursorAhead
    /// The cursor's mark is not the one this history stored for its number: it comes from a
    /// history the server no longer has (it was restored from an older backup).
    case cursorFromAnotherHistory
    /// The account's purges passed the cursor.
    case cursorExpired
}

/// Storage failures the server answers specially. A struct so cases can be added later.
public struct ServerStorageError: Error, Equatable, Sendable, CustomStringConvertible {
    private enum Kind: Equatable, Sendable {
        case usernameTaken(String)
        case invalidUsername(String)
        case closed
    }

    private let kind: Kind

    /// An account with this username exists.
    public static func usernameTaken(_ name: String) -> ServerStorageError {
        ServerStorageError(kind: .usernameTaken(name))
    }

    /// The username is empty, too long, or has characters other than `a-z`, `0-9`, `.`, `_`, `-`.
    public static func invalidUsername(_ name: String) -> ServerStorageError {
        ServerStorageError(kind: .invalidUsername(name))
    }

    /// The store was closed; the server is stopping.
    public static let closed = ServerStorageError(kind: .closed)

    public var description: String {
        switch kind {
        case .usernameTaken(let name):
            "an account named '\(name)' already exists; choose another name"
        case .invalidUsername(let name):
            "'\(name)' is not a valid username: use 1 to 64 letters, digits, '.', '_' or '-'"
        case .closed:
            "the server's storage is closed"
        }
    }
}

extension ServerStorage {
    /// One write after another, each its own transaction: correct for any store.
    public func writeBatch(
        _ writes: [(write: NoteWrite, idempotency: IdempotencyKey)], account: AccountID,
        writer: SessionID?, quota: NoteQuota, now: Date,
        record: @escaping @Sendable (NoteWriteOutcome) -> RecordedAnswer?
    ) async throws -> [WriteResult] {
        var results: [WriteResult] = []
        for item in writes {
            results.append(
                try await write(
                    item.write, account: account, writer: writer, idempotency: item.idempotency,
                    quota: quota, now: now, record: record))
        }
        return results
    }

    /// ``write(_:account:writer:idempotency:quota:now:record:)`` without a quota.
    public func write(
        _ write: NoteWrite, account: AccountID, writer: SessionID?, idempotency: IdempotencyKey,
        now: Date, record: @escaping @Sendable (NoteWriteOutcome) -> RecordedAnswer?
    ) async throws -> WriteResult {
        try await self.write(
            write, account: account, writer: writer, idempotency: idempotency, quota: .unlimited,
            now: now, record: record)
    }

    /// ``writeBatch(_:account:writer:quota:now:record:)`` without a quota.
    public func writeBatch(
        _ writes: [(write: NoteWrite, idempotency: IdempotencyKey)], account: AccountID,
        writer: SessionID?, now: Date, record: @escaping @Sendable (NoteWriteOutcome) -> RecordedAnswer?
    ) async throws -> [WriteResult] {
        try await writeBatch(
            writes, account: account, writer: writer, quota: .unlimited, now: now, record: record)
    }
}
