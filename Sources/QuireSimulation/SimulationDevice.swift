import Foundation
import QuireClient
import QuireDomain
import QuireTestSupport

/// One simulated phone: a real ``NotesDatabase`` on its own file and a real ``NotesSyncEngine``,
/// talking to the server through its own ``SimulationTransport``.
///
/// Used only from the scheduler's task, one step at a time. `crash()` drops the engine and the
/// database actor (and with it the file's connection) and opens the same file again, as a
/// relaunched process would: whatever was committed survives, nothing else does.
final class SimulationDevice {
    let index: Int
    let transport: SimulationTransport
    private let fileURL: URL
    private let api: NotesAPIClient
    private let clock: VirtualClock
    private let config: SimulationConfig
    /// nil only for the instant between a crash and the relaunch.
    private var parts: (database: NotesDatabase, engine: NotesSyncEngine)?

    var database: NotesDatabase {
        get throws { try running().database }
    }

    var engine: NotesSyncEngine {
        get throws { try running().engine }
    }

    init(
        index: Int, directory: URL, transport: SimulationTransport, token: String,
        clock: VirtualClock, config: SimulationConfig
    ) throws {
        self.index = index
        self.transport = transport
        self.clock = clock
        self.config = config
        fileURL = directory.appendingPathComponent("device\(index).sqlite")
        api = NotesAPIClient(transport: transport, tokens: StaticTokenProvider(token: token))
        parts = try Self.open(fileURL, api: api, clock: clock, config: config)
    }

    /// Binds the database to the simulation's account, as a sign-in does.
    func signIn() async throws {
        try await database.bindAccount(AccountID("sim"))
    }

    /// A second process of this device: its own connection to the same file and its own engine,
    /// behind the same sync lock. Lives for one action.
    func secondProcess() throws -> NotesSyncEngine {
        try Self.open(fileURL, api: api, clock: clock, config: config).engine
    }

    /// Kills the device's process and relaunches it on the same file.
    func crash() throws {
        // Release the old connection before the new one opens: one connection per file.
        parts = nil
        parts = try Self.open(fileURL, api: api, clock: clock, config: config)
    }

    private func running() throws -> (database: NotesDatabase, engine: NotesSyncEngine) {
        guard let parts else { throw SimulationError("device \(index) failed to relaunch") }
        return parts
    }

    /// The live notes, with their sync facts.
    func rows() async throws -> [NoteRecord] {
        try await database.readNoteRows()
    }

    /// Pending changes, in flight and refused included.
    func pendingCount() async throws -> Int {
        try await database.readStatus().pendingCount
    }

    private static func open(
        _ url: URL, api: NotesAPIClient, clock: VirtualClock, config: SimulationConfig
    ) throws -> (database: NotesDatabase, engine: NotesSyncEngine) {
        // `.normal`: a crash here is a killed process, not a power cut, and fsyncs would dominate.
        let database = try NotesDatabase(
            fileURL: url, now: { clock.now() }, durability: .normal)
        let records: SyncRecords =
            switch config.sabotage {
            case .none: database
            case .dropLocalTextOnConflict: LossySyncRecords(database: database)
            }
        let engine = NotesSyncEngine(
            records: records, api: api, codec: PlainPayloadCodec(), account: AccountID("sim"),
            pageLimit: config.pageLimit,
            runLock: FileSyncRunLock(file: url.appendingPathExtension("lock")),
            now: { clock.now() })
        return (database: database, engine: engine)
    }
}
