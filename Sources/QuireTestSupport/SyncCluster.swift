import Foundation
import QuireClient
import QuireCrypto
import QuireDomain
import QuireServer
import QuireWire

/// One server (the real handler core on a temporary SQLite file) and any number of devices (real
/// databases and real engines), wired in process, each through its own ``FaultyTransport``.
///
/// The two-device tests of STYLE.md: explicit saves, explicit syncs, no sockets, no sleeps.
public final class SyncCluster: @unchecked Sendable {
    // Devices are added before use and then only read; each device's parts are Sendable.
    public let directory: TemporaryDirectory
    public let server: NotesServer
    /// The server's storage, for tests that back it up and restore it.
    public let storage: SQLiteServerStorage
    /// The first session's token (each device opens its own session).
    public let token: String
    public let username: String
    /// The account's notes key, shared by its devices as after a real sign-in.
    public let notesKey = SymmetricKey256.random()
    public private(set) var devices: [ClusterDevice] = []

    public init(account: String = "alice") async throws {
        directory = try TemporaryDirectory(prefix: "quire-cluster")
        // A cheap auth-key hash: these tests are about sync, and every cluster makes an account.
        storage = try SQLiteServerStorage(path: directory.path("server.sqlite").path)
        server = NotesServer(
            storage: storage, configuration: NotesServerConfiguration(authHashIterations: 1_000),
            log: { _ in })
        token = try await server.createAccount(username: account)
        username = account
    }

    /// Adds a device with its own database; it syncs as this cluster's account.
    @discardableResult
    public func addDevice(
        _ name: String, pageLimit: Int = 200, codec: PayloadCodec? = nil,
        batchLimit: Int = WireRoutes.maxBatchSize, bodyLimit: Int = WireRoutes.maxBodyBytes,
        now: @escaping @Sendable () -> Date = Date.init
    ) async throws -> ClusterDevice {
        // Each device is its own session, as after its own sign-in.
        let token = try await server.openSession(username: username, deviceName: name)
        let device = try ClusterDevice(
            name: name, directory: directory.path(name), server: server, token: token,
            pageLimit: pageLimit,
            codec: codec ?? SealedPayloadCodec(notesKey: notesKey, account: AccountID("cluster")),
            batchLimit: batchLimit, bodyLimit: bodyLimit, now: now)
        devices.append(device)
        return device
    }

    public func remove() { directory.remove() }
}

/// A device in a ``SyncCluster``.
public struct ClusterDevice: Sendable {
    public let name: String
    public let directory: URL
    /// This device's session token and codec, for a second process of it (``secondProcess(server:)``).
    public let token: String
    public let codec: PayloadCodec
    public let database: NotesDatabase
    public let notes: LocalNotesRepository
    public let transport: FaultyTransport
    public let api: NotesAPIClient
    public let engine: NotesSyncEngine

    init(
        name: String, directory: URL, server: NotesServer, token: String, pageLimit: Int,
        codec: PayloadCodec, batchLimit: Int, bodyLimit: Int, now: @escaping @Sendable () -> Date
    ) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.name = name
        self.directory = directory
        self.token = token
        self.codec = codec
        database = try NotesDatabase(fileURL: directory.appendingPathComponent("notes.sqlite"), now: now)
        notes = LocalNotesRepository(records: database)
        transport = FaultyTransport(wrapping: InProcessTransport(server: server))
        api = NotesAPIClient(transport: transport, tokens: StaticTokenProvider(token: token))
        engine = NotesSyncEngine(
            records: database, api: api, codec: codec, account: AccountID("cluster"),
            pageLimit: pageLimit, batchLimit: batchLimit, bodyLimit: bodyLimit,
            runLock: FileSyncRunLock(directory: directory), now: now)
    }

    /// A controller that runs this device's engine by itself.
    public func controller(
        clock: any Clock<Duration>, network: NetworkPath = AlwaysOnlinePath(),
        debounce: Duration = .milliseconds(300), longPollWait: Int = 0, random: Double = 0.5
    ) -> SyncController {
        SyncController(
            engine: engine, records: database, api: api, network: network, clock: clock,
            debounce: debounce, longPollWait: longPollWait, random: { random })
    }

    /// Creates a note and returns its id.
    @discardableResult
    public func create(title: String, body: String) async throws -> NoteID {
        let id = NoteID()
        try await notes.save(id: id, title: title, body: body)
        return id
    }

    public func edit(_ id: NoteID, title: String? = nil, body: String? = nil) async throws {
        let current = try await note(id)
        try await notes.save(id: id, title: title ?? current?.title ?? "", body: body ?? current?.body ?? "")
    }

    public func delete(_ id: NoteID) async throws {
        try await notes.delete(id)
    }

    @discardableResult
    public func sync() async -> SyncReport {
        await engine.syncOnce()
    }

    /// The live notes, as the list shows them.
    public func all() async -> [Note] {
        for await notes in notes.notes() { return notes }
        return []
    }

    public func note(_ id: NoteID) async throws -> Note? {
        await all().first { $0.id == id }
    }

    /// (title, body) of every live note, sorted: what two converged devices must agree on.
    public func contents() async -> [String] {
        await all().map { "\($0.id)|\($0.title)|\($0.body)|\($0.conflictOf?.description ?? "-")" }.sorted()
    }
}

extension ClusterDevice {
    /// The same device as a second process (`quire watch` beside a `quire sync`): its own
    /// connection to the same database file and its own engine, sharing only the files, the sync
    /// lock among them. `transport` is its own network.
    public func secondProcess(transport: HTTPTransport) throws -> (
        database: NotesDatabase, engine: NotesSyncEngine
    ) {
        let database = try NotesDatabase(fileURL: directory.appendingPathComponent("notes.sqlite"))
        let api = NotesAPIClient(transport: transport, tokens: StaticTokenProvider(token: token))
        let engine = NotesSyncEngine(
            records: database, api: api, codec: codec, account: AccountID("cluster"),
            runLock: FileSyncRunLock(directory: directory))
        return (database, engine)
    }
}
