import Foundation
import QuireClient
import QuireCrypto
import QuireDomain
import QuireTestSupport
import QuireWire

/// One simulated phone: a real ``NotesDatabase`` and ``TripsDatabase`` on their own files and
/// their real engines (``NotesSyncEngine``, ``TripsSyncEngine``), sharing one token provider and
/// one run lock as the product's device does, talking to the server through its own
/// ``SimulationTransport``.
///
/// Used only from the scheduler's task, one step at a time. `crash()` drops the engine and the
/// database actor (and with it the file's connection) and opens the same file again, as a
/// relaunched process would: whatever was committed survives, nothing else does.
///
/// The device holds real session tokens and refreshes them through the server as the product
/// does (``SessionTokenProvider``); its credential store survives a crash, as the 0600 file does.
final class SimulationDevice {
    let index: Int
    /// The account's username ("sim", or the companion's), also its id on the devices.
    let username: String
    let transport: SimulationTransport
    /// Where the device's tokens live; kept across crashes.
    let credentials: InMemoryCredentialStore
    private let fileURL: URL
    private var tokens: SessionTokenProvider
    private let clock: VirtualClock
    private let config: SimulationConfig
    /// nil only for the instant between a crash and the relaunch.
    private var parts: Parts?

    /// One process's databases and engines.
    struct Parts {
        var database: NotesDatabase
        var engine: NotesSyncEngine
        var trips: TripsDatabase
        var tripsEngine: TripsSyncEngine
        var sharing: TripSharing
    }

    /// The account's notes key: every device of the account holds it (zero bytes: the
    /// simulation's notes travel in the clear, its trips sealed with keys it wraps).
    static let notesKey = SymmetricKey256(data: Data(count: 32))!

    var database: NotesDatabase {
        get throws { try running().database }
    }

    var engine: NotesSyncEngine {
        get throws { try running().engine }
    }

    var trips: TripsDatabase {
        get throws { try running().trips }
    }

    var tripsEngine: TripsSyncEngine {
        get throws { try running().tripsEngine }
    }

    var sharing: TripSharing {
        get throws { try running().sharing }
    }

    init(
        index: Int, directory: URL, transport: SimulationTransport, session: SessionDTO,
        clock: VirtualClock, config: SimulationConfig, username: String = "sim"
    ) throws {
        self.index = index
        self.username = username
        self.transport = transport
        self.clock = clock
        self.config = config
        credentials = InMemoryCredentialStore(Self.accountSession(session, username: username, now: clock.now()))
        fileURL = directory.appendingPathComponent("\(username)-device\(index).sqlite")
        tokens = Self.tokens(transport: transport, credentials: credentials, clock: clock)
        parts = try Self.open(
            fileURL, username: username, transport: transport, tokens: tokens, clock: clock, config: config)
    }

    /// Whether the device still holds tokens (a refused refresh signs it out).
    var isSignedIn: Bool {
        (try? credentials.load())?.isSignedIn ?? false
    }

    /// Stores the tokens of a new sign-in, as `quire login` does after a sign-out.
    func signIn(again session: SessionDTO) throws {
        try credentials.save(Self.accountSession(session, username: username, now: clock.now()))
    }

    /// One process's view of the device's session: its own provider (and in-flight refresh) over
    /// the device's credential store.
    private static func tokens(
        transport: SimulationTransport, credentials: InMemoryCredentialStore, clock: VirtualClock
    ) -> SessionTokenProvider {
        SessionTokenProvider(
            store: credentials, accounts: AccountsAPIClient(transport: transport), now: { clock.now() })
    }

    private static func accountSession(_ session: SessionDTO, username: String, now: Date) -> AccountSession {
        AccountSession(
            serverURL: server, username: username, accountId: session.accountId,
            accessToken: session.accessToken, refreshToken: session.refreshToken,
            accessTokenExpiresAt: now.addingTimeInterval(TimeInterval(session.expiresIn)),
            notesKey: Data(count: 32).base64EncodedString(),
            kdf: KDFParametersDTO(salt: Data(count: 16).base64EncodedString(), iterations: 1_000))
    }

    /// Binds the databases to the simulation's account, as a sign-in does.
    func signIn() async throws {
        try await database.bindAccount(AccountID(username))
        try await trips.bindAccount(AccountID(username))
    }

    /// A second process of this device: its own connection to the same file and its own engine,
    /// behind the same sync lock. Lives for one action. It shares the token provider: the
    /// credential file's refresh lock serializes two processes' refreshes as one provider does.
    func secondProcess() throws -> Parts {
        try Self.open(fileURL, username: username, transport: transport, tokens: tokens, clock: clock, config: config)
    }

    /// Kills the device's process and relaunches it on the same file.
    func crash() throws {
        // Release the old connection before the new one opens: one connection per file. The new
        // process has its own token provider over the same stored session.
        parts = nil
        tokens = Self.tokens(transport: transport, credentials: credentials, clock: clock)
        parts = try Self.open(
            fileURL, username: username, transport: transport, tokens: tokens, clock: clock, config: config)
    }

    private func running() throws -> Parts {
        guard let parts else { throw SimulationError("device \(index) failed to relaunch") }
        return parts
    }

    /// The live notes, with their sync facts.
    func rows() async throws -> [NoteRecord] {
        try await database.readNoteRows()
    }

    /// A reader of the server's history and trash over this device's network and session, as
    /// `QuireDevice.makeHistoryReader` makes the one `quire history` and `quire trash` use.
    func historyReader() async throws -> NoteHistoryReader {
        NoteHistoryReader(
            api: NotesAPIClient(transport: transport, tokens: tokens), codec: PlainPayloadCodec(),
            ownDevice: try await database.deviceLabel())
    }

    /// Pending changes, in flight and refused included.
    func pendingCount() async throws -> Int {
        try await database.readStatus().pendingCount
    }

    /// The server the devices name (links point to it; nothing resolves it).
    static let server = URL(string: "http://simulation.invalid")!

    private static func open(
        _ url: URL, username: String, transport: SimulationTransport, tokens: SessionTokenProvider,
        clock: VirtualClock, config: SimulationConfig
    ) throws -> Parts {
        let account = AccountID(username)
        // `.normal`: a crash here is a killed process, not a power cut, and fsyncs would dominate.
        let database = try NotesDatabase(
            fileURL: url, now: { clock.now() }, durability: .normal)
        let records: SyncRecords =
            switch config.sabotage {
            case .none, .noRefreshRetryGrace, .tripsLastWriterWins, .viewersMayEdit, .serverForgetsHistory: database
            case .dropLocalTextOnConflict: LossySyncRecords(database: database)
            }
        let runLock = FileSyncRunLock(file: url.appendingPathExtension("lock"))
        let engine = NotesSyncEngine(
            records: records, api: NotesAPIClient(transport: transport, tokens: tokens),
            codec: PlainPayloadCodec(), account: account, pageLimit: config.pageLimit,
            runLock: runLock, now: { clock.now() })
        let trips = try TripsDatabase(
            fileURL: url.deletingPathExtension().appendingPathExtension("trips.sqlite"), now: { clock.now() })
        let sharing = TripSharing(
            api: TripSharingAPIClient(transport: transport, tokens: tokens), database: trips, notesKey: notesKey,
            account: account, username: username, server: server)
        let tripsEngine = TripsSyncEngine(
            database: trips, api: TripsAPIClient(transport: transport, tokens: tokens),
            keys: TripKeyWrapping(notesKey: notesKey, account: account), keySource: sharing, account: account,
            pageLimit: config.pageLimit, opsLimit: config.tripOpsLimit, runLock: runLock, now: { clock.now() })
        return Parts(
            database: database, engine: engine, trips: trips, tripsEngine: tripsEngine, sharing: sharing)
    }
}
