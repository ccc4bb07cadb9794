import Foundation
import QuireCrypto
import QuirePostgres
import QuireTestSupport
import QuireWire
import Synchronization
import Testing

@testable import QuireServer

/// A clock the tests move by hand.
final class ManualClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// Which ``ServerStorage`` a harness's server runs on: the suites that exercise storage run
/// their same bodies on each (`@Test(arguments: StoreKind.allCases)`).
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }
}

/// One in-process server over a fresh store, plus request helpers: a SQLite file in a fresh
/// temporary directory (removed when the harness goes away), or a fresh database in the test
/// process's throwaway PostgreSQL cluster (``PostgresTestCluster``; it fails the test, saying to
/// run `bash scripts/setup.sh`, when PostgreSQL is not installed).
final class ServerHarness: Sendable {
    let server: NotesServer
    let clock: ManualClock
    let directory: URL
    let store: StoreKind
    /// The PostgreSQL database's connection parameters; nil on SQLite.
    let postgresConnectionString: String?

    /// Low iteration counts keep the slow hashes fast, and registrations are not limited (tests
    /// register many accounts from one address); everything else is the production default.
    static let configuration: NotesServerConfiguration = {
        var configuration = NotesServerConfiguration(minKDFIterations: 1_000, authHashIterations: 1_000)
        configuration.registrationLimit = RegistrationLimit.Policy(burst: 1_000_000)
        return configuration
    }()

    private init(
        server: NotesServer, clock: ManualClock, directory: URL, store: StoreKind,
        postgresConnectionString: String?
    ) {
        self.server = server
        self.clock = clock
        self.directory = directory
        self.store = store
        self.postgresConnectionString = postgresConnectionString
    }

    /// A server over a SQLite file.
    convenience init(configuration: NotesServerConfiguration = ServerHarness.configuration) throws {
        let directory = try Self.makeDirectory()
        let clock = ManualClock()
        let server = try NotesServer.sqlite(
            path: directory.appendingPathComponent("server.sqlite").path,
            configuration: configuration, now: { clock.now }, log: { _ in })
        self.init(
            server: server, clock: clock, directory: directory, store: .sqlite, postgresConnectionString: nil)
    }

    /// A server over `store`: a SQLite file, or a fresh PostgreSQL database.
    convenience init(store: StoreKind, configuration: NotesServerConfiguration = ServerHarness.configuration)
        async throws
    {
        guard store == .postgres else {
            try self.init(configuration: configuration)
            return
        }
        let directory = try Self.makeDirectory()
        let clock = ManualClock()
        let connectionString = try await PostgresTestCluster.freshDatabase()
        let server = NotesServer(
            storage: try await PostgresServerStorage.connect(connectionString),
            configuration: configuration, now: { clock.now }, log: { _ in })
        self.init(
            server: server, clock: clock, directory: directory, store: .postgres,
            postgresConnectionString: connectionString)
    }

    private static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("quire-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A second server (another instance) on this harness's store and clock; PostgreSQL only.
    func secondInstance(configuration: NotesServerConfiguration = ServerHarness.configuration) async throws
        -> NotesServer
    {
        let clock = self.clock
        guard let postgresConnectionString else {
            throw PostgresTestClusterError("a second instance needs a PostgreSQL harness")
        }
        return NotesServer(
            storage: try await PostgresServerStorage.connect(postgresConnectionString),
            configuration: configuration, now: { clock.now }, log: { _ in })
    }

    var databasePath: String { directory.appendingPathComponent("server.sqlite").path }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    static func uuid() -> String { UUID().uuidString.lowercased() }

    // MARK: - Accounts

    /// The auth key a test client derives for `username`'s password `password`.
    static func authKey(_ username: String, password: String = "right") -> Data {
        Data(SHA256Digest.hash(Data("\(username):\(password)".utf8)))
    }

    /// A registration body with valid defaults; override any field.
    static func registration(
        _ username: String, authKey: Data? = nil, salt: Data = Data(repeating: 7, count: 16),
        iterations: Int = 1_000, wrappedNotesKey: Data = Data(repeating: 9, count: 60)
    ) -> CreateAccountRequestDTO {
        CreateAccountRequestDTO(
            username: username,
            authKey: (authKey ?? Self.authKey(username)).base64EncodedString(),
            kdf: KDFParametersDTO(salt: salt.base64EncodedString(), iterations: iterations),
            wrappedNotesKey: wrappedNotesKey.base64EncodedString())
    }

    func post<T: Encodable>(
        _ path: String, _ body: T, address: String = "", headers: [String: String] = [:]
    ) async -> HTTPResponse {
        await server.handle(
            HTTPRequest(
                method: "POST", path: path, headers: headers, body: WireJSON.encode(body),
                remoteAddress: address))
    }

    func register(_ dto: CreateAccountRequestDTO) async -> HTTPResponse {
        await post(WireRoutes.accounts, dto)
    }

    func signIn(
        _ username: String, authKey: Data? = nil, device: String = "laptop", address: String = ""
    ) async -> HTTPResponse {
        await post(
            WireRoutes.sessions,
            CreateSessionRequestDTO(
                username: username,
                authKey: (authKey ?? Self.authKey(username)).base64EncodedString(),
                deviceName: device), address: address)
    }

    func refresh(_ refreshToken: String) async -> HTTPResponse {
        await post(WireRoutes.refreshSession, RefreshSessionRequestDTO(refreshToken: refreshToken))
    }

    func kdf(_ username: String) async -> HTTPResponse {
        await server.handle(HTTPRequest(method: "GET", path: WireRoutes.kdf(username)))
    }

    /// Registers `username` through the routes (unless it exists) and signs in; fails the test
    /// unless both succeed.
    func session(_ username: String, device: String = "laptop") async throws -> SessionDTO {
        let registered = await register(Self.registration(username))
        try #require(
            registered.status == 201 || registered.errorCode == "username_taken",
            "register answered \(registered.status): \(registered.text)")
        let response = await signIn(username, device: device)
        try #require(
            response.status == 200, "sign-in answered \(response.status): \(response.text)")
        return try response.decoded(SessionDTO.self)
    }

    /// A fresh access token for `username`, registered through the routes.
    func token(_ username: String) async throws -> String {
        try await session(username).accessToken
    }

    /// Everything the store holds, as bytes, after closing the server: the SQLite file and its
    /// WAL, or every column of every PostgreSQL table (`bytea` as its raw bytes, the rest as
    /// text).
    func databaseBytes() async throws -> Data {
        await server.shutDown()
        guard let postgresConnectionString else {
            let url = URL(fileURLWithPath: databasePath)
            return try Data(contentsOf: url)
                + ((try? Data(contentsOf: URL(fileURLWithPath: databasePath + "-wal"))) ?? Data())
        }
        return try await onOwnThread {
            let db = try PostgresConnection(postgresConnectionString)
            let columns = try db.queryAll(
                """
                SELECT table_name, column_name, data_type = 'bytea' FROM information_schema.columns
                WHERE table_schema = 'public' ORDER BY table_name, ordinal_position
                """
            ) { (try $0.text(0), try $0.text(1), try $0.bool(2)) }
            var bytes = Data()
            for (table, column, isBytes) in columns {
                for row in try db.query("SELECT \"\(column)\" FROM \"\(table)\"").rows where !row.isNull(0) {
                    bytes += isBytes ? try row.bytes(0) : Data(try row.text(0).utf8)
                    bytes.append(0)
                }
            }
            return bytes
        }
    }

    /// A new server on the same store after this one shut down: the SQLite file opened again, or
    /// another instance on the PostgreSQL database.
    func restarted() async throws -> NotesServer {
        await server.shutDown()
        guard store == .postgres else { return try NotesServer.sqlite(path: databasePath, log: { _ in }) }
        return try await secondInstance()
    }

    // MARK: - Requests

    func put(
        _ id: String, payload: String, base: Int?, baseTag: String? = nil, token: String,
        key: String = UUID().uuidString
    ) async -> HTTPResponse {
        let body = WireJSON.encode(
            PutNoteRequestDTO(payload: payload, baseVersion: base, baseVersionTag: baseTag))
        return await server.handle(
            HTTPRequest(
                method: "PUT", path: WireRoutes.note(id),
                headers: ["Authorization": "Bearer \(token)", "Idempotency-Key": key], body: body))
    }

    func delete(
        _ id: String, base: Int, baseTag: String? = nil, token: String,
        key: String = UUID().uuidString
    ) async -> HTTPResponse {
        var query = ["baseVersion": "\(base)"]
        if let baseTag { query["baseVersionTag"] = baseTag }
        return await server.handle(
            HTTPRequest(
                method: "DELETE", path: WireRoutes.note(id), query: query,
                headers: ["Authorization": "Bearer \(token)", "Idempotency-Key": key]))
    }

    func changesResponse(
        token: String, since: String? = nil, known: String? = nil, limit: Int? = nil, wait: Int? = nil,
        ownPayloads: String? = nil
    ) async -> HTTPResponse {
        var query: [String: String] = [:]
        if let ownPayloads { query["ownPayloads"] = ownPayloads }
        if let since { query["since"] = since }
        if let known { query["known"] = known }
        if let limit { query["limit"] = "\(limit)" }
        if let wait { query["wait"] = "\(wait)" }
        return await server.handle(
            HTTPRequest(
                method: "GET", path: WireRoutes.changes, query: query,
                headers: ["Authorization": "Bearer \(token)"]))
    }

    /// One page of the feed; fails the test unless the answer is a 200 page.
    func changes(
        token: String, since: String? = nil, limit: Int? = nil, wait: Int? = nil, ownPayloads: String? = nil
    ) async throws -> ChangesPageDTO {
        let response = await changesResponse(
            token: token, since: since, limit: limit, wait: wait, ownPayloads: ownPayloads)
        try #require(
            response.status == 200, "changes answered \(response.status): \(response.text)")
        return try WireJSON.decoder().decode(ChangesPageDTO.self, from: response.body)
    }

    /// Every change the account has, read page by page from the start: the whole stored state as
    /// the API shows it, for before/after comparisons.
    func everything(token: String) async throws -> [NoteChangeDTO] {
        var all: [NoteChangeDTO] = []
        var page = try await changes(token: token, since: ChangeCursor(seq: 0).plainText, limit: 500)
        all += page.changes
        while page.hasMore {
            page = try await changes(token: token, since: page.nextCursor, limit: 500)
            all += page.changes
        }
        return all
    }
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The error code of a JSON error answer, or nil.
    var errorCode: String? {
        (try? JSONDecoder().decode(ErrorResponseDTO.self, from: body))?.error.code
    }

    func decoded<T: Decodable>(_ type: T.Type) throws -> T {
        try WireJSON.decoder().decode(type, from: body)
    }
}

/// Waits for `condition` to hold, checking it until `timeout` passes; returns whether it held.
/// (The shared `QuireTestSupport.eventually`, with a `Duration`.)
func eventually(
    timeout: Duration = .seconds(60), _ condition: @Sendable () async -> Bool
) async -> Bool {
    await QuireTestSupport.eventually(timeout: Double(timeout.components.seconds)) { await condition() }
}
