import Foundation
import QuireClient
import QuireDomain
import QuireServer
import QuireTestSupport
import QuireTrips

/// One simulated world: the real server core on its own SQLite file, `config.devices` real
/// devices, the network between them, the virtual clock and the checks' memory.
///
/// Driven by one task, one action at a time (each awaited to the end), so the interleaving is the
/// plan's and not the thread pool's. Lives in a fresh directory (in memory when `/dev/shm` exists),
/// removed by `remove()`.
final class SimulationWorld {
    let config: SimulationConfig
    let directory: URL
    let clock = VirtualClock()
    let storage: RecordingStorage
    let server: NotesServer
    let held: HeldRequests
    var devices: [SimulationDevice] = []
    var ledger = TextLedger()
    /// What "nothing lost" owes in the trips: each field value typed, as a line.
    var tripLedger = TextLedger()
    /// Each device's last trips report (its sync's second part), for quiescence.
    var lastTripsReport: [Int: SyncReport] = [:]
    var stats = SimulationStats()
    /// Each server note's last seen version, to check versions only grow.
    var serverVersions: [String: Int] = [:]
    /// Each device's last stored cursor position, to check cursors only grow.
    var cursors: [Int: Int64] = [:]
    /// The server's last backup file, for `.restoreServer`.
    var lastBackup: String?
    /// Devices whose session a restore may have forgotten (sessions made or rotated after the
    /// backup are not in it): each may be signed out once, and signs in again.
    var restoredSessions: Set<Int> = []
    /// The companion: a second account's one device, when `config.companion` (issue 15).
    var companion: SimulationDevice?
    /// The values written into each trip while the companion was not a member of it, which its
    /// device must never hold, by the index of the device that wrote them.
    var writtenWithoutCompanion: [TripID: [Int: Set<String>]] = [:]
    /// The trips whose removal of the companion a restore forgot, until a device makes it again:
    /// each with the owner's devices that knew of the removal then. What the others write
    /// meanwhile may reach the companion (docs/trips.md, "What no device knows, no device can
    /// make again").
    var forgottenRemovals: [TripID: Set<Int>] = [:]
    /// Whether the companion is a member of each trip by the owner's doing: read from the server
    /// after each share, removal and leave, never after a restore. A removal a restore forgot is
    /// still a removal: the membership the restore brought back is no membership to the checks.
    var companionJoined: [TripID: Bool] = [:]
    /// By device: the items (`trip/item`) it deleted itself, or whose restore offer its person
    /// settled; it need not offer their unseen edits back.
    var excusedOffers: [Int: Set<String>] = [:]

    /// The companion's username.
    static let companionName = "sim2"

    /// Access token lifetime in the simulation, in virtual seconds (a step is one).
    static let accessTokenTTL = 40

    static func serverConfiguration(_ config: SimulationConfig) -> NotesServerConfiguration {
        var configuration = NotesServerConfiguration(accessTokenTTL: accessTokenTTL, authHashIterations: 1_000)
        if config.sabotage == .noRefreshRetryGrace { configuration.refreshRetryGrace = 0 }
        return configuration
    }

    init(config: SimulationConfig) async throws {
        self.config = config
        let shm = URL(fileURLWithPath: "/dev/shm")
        let base =
            FileManager.default.fileExists(atPath: shm.path)
            ? shm : FileManager.default.temporaryDirectory
        directory = base.appendingPathComponent("quire-sim-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let clock = clock
        storage = RecordingStorage(
            inner: try SQLiteServerStorage(
                path: directory.appendingPathComponent("server.sqlite").path))
        // Access tokens live 40 virtual seconds, so devices refresh them every few steps and a
        // lost refresh answer meets the rotation rules; the account's hash is cheap: the
        // simulation is about sync, and it makes one account per seed.
        server = NotesServer(
            storage: storage,
            configuration: Self.serverConfiguration(config),
            now: { clock.now() }, log: { _ in })
        storage.forgetsHistory = config.sabotage == .serverForgetsHistory
        _ = try await server.createAccount(username: "sim")
        let inProcess = InProcessTransport(server: server)
        held = HeldRequests(server: inProcess)
        for index in 0..<max(1, config.devices) {
            let transport = SimulationTransport(
                server: inProcess, held: held, name: "d\(index)",
                tripsLastWriterWins: config.sabotage == .tripsLastWriterWins, now: { clock.now() })
            // Each device is its own session, as after its own sign-in.
            let session = try await server.openSessionTokens(username: "sim", deviceName: "d\(index)")
            let device = try SimulationDevice(
                index: index, directory: directory, transport: transport, session: session,
                clock: clock, config: config)
            try await device.signIn()
            devices.append(device)
        }
        if config.trips, config.companion {
            if config.sabotage == .viewersMayEdit { storage.viewerWhoMayEdit = Self.companionName }
            _ = try await server.createAccount(username: Self.companionName)
            let transport = SimulationTransport(
                server: inProcess, held: held, name: "companion",
                tripsLastWriterWins: config.sabotage == .tripsLastWriterWins, now: { clock.now() })
            let session = try await server.openSessionTokens(username: Self.companionName, deviceName: "companion")
            let device = try SimulationDevice(
                index: devices.count, directory: directory, transport: transport, session: session, clock: clock,
                config: config, username: Self.companionName)
            try await device.signIn()
            // Published at once, as a sign-in does, so the owner can invite it.
            try await (try device.sharing).keyPair()
            companion = device
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - Running a plan

    /// Runs every action, checking the step invariants after each, then heals, quiesces and runs
    /// the end checks. Returns the first failure, or nil.
    func run(_ actions: [SimulationAction]) async -> SimulationFailure? {
        let trace = ProcessInfo.processInfo.environment["QUIRE_SIM_TRACE"] != nil
        for (step, action) in actions.enumerated() {
            if trace { FileHandle.standardError.write(Data("step \(step): \(action)\n".utf8)) }
            do {
                try await perform(action, step: step)
            } catch let failure as SimulationFailure {
                return failure
            } catch {
                return SimulationFailure(kind: .harness, message: "\(action): \(error)", step: step)
            }
            clock.advance()
            if let failure = await checkServerGrew(step: step) { return failure }
            if ProcessInfo.processInfo.environment["QUIRE_SIM_TRACE"] == "state" { await traceState() }
        }
        do {
            return try await finish()
        } catch let failure as SimulationFailure {
            return failure
        } catch {
            return SimulationFailure(kind: .harness, message: "finishing: \(error)")
        }
    }

    /// The final notes and counts, for comparing two runs of one plan.
    func digest() async -> String {
        let notes = (try? await serverSnapshots()) ?? []
        return notes.map(\.description).sorted().joined(separator: "\n") + "\n" + stats.summary
    }

    // MARK: - Reading state

    /// Prints every note of the server and of each device, with its version (QUIRE_SIM_TRACE=state).
    func traceState() async {
        var lines: [String] = []
        for stored in (try? await storage.allNotes()) ?? [] {
            let text = stored.payload.flatMap { payload in
                NoteID(stored.id).flatMap { try? PlainPayloadCodec().open(payload, noteID: $0) }
            }
            lines.append(
                "  server \(stored.id.suffix(4)) v\(stored.version)"
                    + (stored.deleted
                        ? " deleted"
                        : " \"\(text?.title ?? "?")\" [\(text?.body.replacingOccurrences(of: "\n", with: ", ") ?? "")]")
            )
        }
        for (index, device) in devices.enumerated() {
            for row in (try? await device.rows()) ?? [] {
                lines.append(
                    "  d\(index) \(row.id.description.suffix(4)) v\(row.version) pending \(row.pendingCount) "
                        + NoteSnapshot(row).description)
            }
        }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    func snapshots(of device: SimulationDevice) async throws -> [NoteSnapshot] {
        try await device.rows().map(NoteSnapshot.init).sorted()
    }

    /// The server's live notes, opened.
    func serverSnapshots() async throws -> [NoteSnapshot] {
        let codec = PlainPayloadCodec()
        return try await storage.allNotes().filter { !$0.deleted }.map { stored in
            guard let id = NoteID(stored.id), let payload = stored.payload else {
                throw SimulationError("server note \(stored.id) has no readable payload")
            }
            let content = try codec.open(payload, noteID: id)
            return NoteSnapshot(
                id: stored.id, title: content.title, body: content.body,
                conflictOf: content.conflictOf?.description)
        }.sorted()
    }

    // MARK: - Step invariants

    private func checkServerGrew(step: Int) async -> SimulationFailure? {
        guard let notes = try? await storage.allNotes() else {
            return SimulationFailure(kind: .harness, message: "cannot read the server", step: step)
        }
        let now = Dictionary(notes.map { ($0.id, $0.version) }, uniquingKeysWith: max)
        let problems = ServerChecks.onlyGrew(before: serverVersions, after: now)
        serverVersions = now
        guard problems.isEmpty else {
            return SimulationFailure(
                kind: .wentBackwards, message: problems.joined(separator: "; "), step: step)
        }
        return nil
    }

    /// Checks the device's stored cursor did not move back, except within a full resync (which
    /// starts over from nothing by design).
    func checkCursor(of device: SimulationDevice, fullResync: Bool, step: Int?) async throws {
        var position: Int64?
        if let cursor = try await device.database.cursor() {
            position = try await server.feedSequence(ofCursor: cursor.rawValue, username: device.username)
        }
        defer { cursors[device.index] = position }
        guard !fullResync, let before = cursors[device.index] else { return }
        guard let position else {
            throw SimulationFailure(
                kind: .wentBackwards, message: "d\(device.index) lost its cursor", step: step)
        }
        if position < before {
            throw SimulationFailure(
                kind: .wentBackwards,
                message: "d\(device.index)'s cursor went from \(before) back to \(position)",
                step: step)
        }
    }
}
