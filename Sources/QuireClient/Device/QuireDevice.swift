import Foundation
import QuireDomain

/// One device: its data directory, its database, its remote, and the parts built on them.
///
/// Several devices can live on one machine, each with its own directory. The database file is
/// `notes.sqlite`; the signed-in account is `session.json` and a token-only remote `remote.json`
/// (both mode 0600). A signed-in account wins over a token-only remote.
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

    // MARK: - Remote

    private var remoteFile: URL { directory.appendingPathComponent("remote.json") }

    /// The configured remote, or nil when this device has none.
    public func remote() throws -> RemoteConfiguration? {
        guard FileManager.default.fileExists(atPath: remoteFile.path) else { return nil }
        try SecretFile.checkPermissions(of: remoteFile)
        return try JSONDecoder().decode(RemoteConfiguration.self, from: Data(contentsOf: remoteFile))
    }

    /// Stores the remote (mode 0600) and binds the database to its account.
    public func setRemote(_ remote: RemoteConfiguration) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try SecretFile.write(try encoder.encode(remote), to: remoteFile)
        try await database.bindAccount(remote.account)
    }

    // MARK: - Account

    /// Where this device keeps its signed-in account: `session.json`, mode 0600.
    public var credentials: CredentialStore { FileCredentialStore(directory: directory) }

    /// Stores the session from a sign-in (or a password change) and binds the database to its
    /// account. Binding another account than before makes the next sync a full one; local notes and
    /// pending changes stay.
    public func signIn(_ session: AccountSession) async throws {
        try credentials.save(session)
        try await database.bindAccount(session.databaseAccount)
    }

    /// A sync engine for the signed-in account: tokens refreshed from the credential store, payloads
    /// sealed with the notes key. A session the server signed out still gives an engine: its syncs
    /// stop with "signed out" and the notes stay.
    /// - Throws: ``AccountError/unreadableSession`` when the stored notes key is damaged.
    public func makeEngine(session: AccountSession, transport: HTTPTransport? = nil) throws -> NotesSyncEngine {
        let transport = transport ?? URLSessionTransport(baseURL: session.serverURL)
        let tokens = SessionTokenProvider(
            store: credentials, accounts: AccountsAPIClient(transport: transport))
        let api = NotesAPIClient(transport: transport, tokens: tokens)
        let codec = SealedPayloadCodec(notesKey: try session.notesKeyValue(), account: session.account)
        return NotesSyncEngine(records: database, api: api, codec: codec, account: session.databaseAccount)
    }

    /// A sync engine for the signed-in account if there is one, else for the configured token-only
    /// remote (with `codec`), or nil when there is neither.
    public func makeEngine(
        transport: HTTPTransport? = nil, codec: PayloadCodec = PlainPayloadCodec()
    ) throws -> NotesSyncEngine? {
        if let session = try credentials.load() {
            return try makeEngine(session: session, transport: transport)
        }
        guard let remote = try remote() else { return nil }
        let api = NotesAPIClient(
            transport: transport ?? URLSessionTransport(baseURL: remote.serverURL),
            tokens: StaticTokenProvider(token: remote.token))
        return NotesSyncEngine(records: database, api: api, codec: codec, account: remote.account)
    }
}
