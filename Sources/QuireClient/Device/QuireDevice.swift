import Foundation
import QuireDomain

/// One device: its data directory, its database, its remote, and the parts built on them.
///
/// Several devices can live on one machine, each with its own directory. The database file is
/// `notes.sqlite`; the signed-in account (tokens and the notes key) is `session.json`, mode 0600.
public final class QuireDevice: Sendable {
    public let directory: URL
    public let database: NotesDatabase
    public let notes: LocalNotesRepository
    public let status: LocalSyncStatusRepository

    /// Opens (creating if needed) the device at `directory`. Throws when the directory cannot be
    /// made or the database cannot be opened.
    public init(directory: URL, now: @escaping @Sendable () -> Date = Date.init) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        self.directory = directory
        self.database = try NotesDatabase(
            fileURL: directory.appendingPathComponent("notes.sqlite"), now: now)
        self.notes = LocalNotesRepository(records: database)
        self.status = LocalSyncStatusRepository(records: database)
    }

    // MARK: - Account

    /// Where this device keeps its signed-in account: `session.json`, mode 0600.
    public var credentials: CredentialStore { FileCredentialStore(directory: directory) }

    /// Throws ``AccountError/anotherAccountsData`` when this device holds notes of an account other
    /// than `username` on `serverURL`: one account's text must never move into another's. A device
    /// with no notes, or signed in to that account before, may sign in. Check before asking for a
    /// password; ``signIn(_:)`` checks again with the account's id.
    public func checkCanSignIn(as username: String, on serverURL: URL) async throws {
        guard try await database.holdsNotes() else { return }
        if let stored = try? credentials.load() {
            guard stored.username == username, stored.serverURL == serverURL else {
                throw AccountError.anotherAccountsData.with(
                    message: "This device holds the notes of \(stored.username) on "
                        + "\(stored.serverURL.absoluteString). Sign out first: quire logout (it warns "
                        + "about anything not yet synced), then sign in as \(username).")
            }
        } else if try await database.boundAccount() != nil {
            throw AccountError.anotherAccountsData
        }
    }

    /// Stores the session from a sign-in (or a password change) and binds the database to its
    /// account. Throws ``AccountError/anotherAccountsData`` (nothing stored) when the database is
    /// bound to another account and holds notes; notes written before any sign-in join the account.
    public func signIn(_ session: AccountSession) async throws {
        if let bound = try await database.boundAccount(), bound != session.databaseAccount,
            try await database.holdsNotes()
        {
            throw AccountError.anotherAccountsData
        }
        // The database refuses the same again, whoever asks: the rule lives where the notes do.
        try await database.bindAccount(session.databaseAccount)
        try credentials.save(session)
    }

    /// A sync engine for the signed-in account: tokens refreshed from the credential store, payloads
    /// sealed with the notes key. A session the server signed out still gives an engine: its syncs
    /// stop with "signed out" and the notes stay.
    /// - Throws: ``AccountError/unreadableSession`` when the stored notes key is damaged.
    public func makeEngine(session: AccountSession, transport: HTTPTransport? = nil) throws -> NotesSyncEngine {
        try makeSyncParts(session: session, transport: transport).engine
    }

    /// The engine and the API client it uses, sharing one token provider: two providers refreshing
    /// the same session would present one refresh token twice, which the server treats as theft.
    public func makeSyncParts(session: AccountSession, transport: HTTPTransport? = nil) throws -> (
        engine: NotesSyncEngine, api: NotesAPIClient
    ) {
        let transport = transport ?? URLSessionTransport(baseURL: session.serverURL)
        let tokens = SessionTokenProvider(
            store: credentials, accounts: AccountsAPIClient(transport: transport))
        let api = NotesAPIClient(transport: transport, tokens: tokens)
        let codec = SealedPayloadCodec(notesKey: try session.notesKeyValue(), account: session.account)
        // `quire watch` and a `quire sync` are two processes on one database: one run at a time.
        let engine = NotesSyncEngine(
            records: database, api: api, codec: codec, account: session.databaseAccount,
            runLock: FileSyncRunLock(directory: directory))
        return (engine, api)
    }

    /// A controller that keeps this device in sync by itself (`quire watch`, the app): triggers,
    /// backoff, and a long-poll for other devices' changes. nil when not signed in.
    public func makeController(
        clock: any Clock<Duration> = ContinuousClock(), longPollWait: Int = 25
    ) throws -> (controller: SyncController, engine: NotesSyncEngine)? {
        guard let session = try credentials.load() else { return nil }
        let transport = URLSessionTransport(baseURL: session.serverURL)
        let (engine, api) = try makeSyncParts(session: session, transport: transport)
        let network = ServerReachability(transport: transport, clock: clock)
        let controller = SyncController(
            engine: engine, records: database, api: api, network: network, clock: clock,
            longPollWait: longPollWait, otherProcessPoll: .milliseconds(500))
        return (controller, engine)
    }

    /// Forgets the account and erases this device's notes: the credentials file and the database
    /// files. Call after the user confirmed losing unsynced changes. The open database keeps
    /// working until this process ends; the next start begins empty.
    public func eraseLocalData() throws {
        try credentials.clear()
        for suffix in ["", "-wal", "-shm"] {
            let file = directory.appendingPathComponent("notes.sqlite" + suffix)
            if FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.removeItem(at: file)
            }
        }
    }

    /// A sync engine for the signed-in account, or nil when this device has never signed in.
    public func makeEngine(transport: HTTPTransport? = nil) throws -> NotesSyncEngine? {
        guard let session = try credentials.load() else { return nil }
        return try makeEngine(session: session, transport: transport)
    }
}
