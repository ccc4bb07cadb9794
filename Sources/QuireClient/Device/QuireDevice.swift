import Foundation
import QuireDomain

/// One device: its data directory, its database, its remote, and the parts built on them.
///
/// Several devices can live on one machine, each with its own directory. The database file is
/// `notes.sqlite`; the remote is `remote.json` (mode 0600).
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

    /// A sync engine for the configured remote, or nil when there is none.
    public func makeEngine(
        transport: HTTPTransport? = nil, codec: PayloadCodec = PlainPayloadCodec()
    ) throws -> NotesSyncEngine? {
        guard let remote = try remote() else { return nil }
        let api = NotesAPIClient(
            transport: transport ?? URLSessionTransport(baseURL: remote.serverURL),
            tokens: StaticTokenProvider(token: remote.token))
        return NotesSyncEngine(records: database, api: api, codec: codec, account: remote.account)
    }
}
