import Foundation
import QuireTestSupport
import Testing

/// Issue 9's live chaos run: a real `quire-server` on a SQLite file, three devices each running
/// `quire watch`, all through a proxy that loses requests and replies. For a bounded time, saves
/// on random devices while watchers, `quire` calls and the server are killed with SIGKILL; then
/// the network heals and every device must hold every acknowledged save, once, and the same notes.
///
/// A save is acknowledged when its `quire new` or `quire edit` exits 0 (promise 1: it is durable
/// on the device). The seed comes from `QUIRE_CHAOS_SEED` when set; every failure names it.
@Suite struct ChaosTests {
    @Test func killsAndLostRepliesLoseNoAcknowledgedSaveMakeNoDuplicateAndDevicesConverge() async throws {
        let random = SeededRandom(environment: "QUIRE_CHAOS_SEED")
        let world = try await ChaosWorld.start(random: random)
        let problems: [String]
        do {
            problems = try await run(world)
        } catch {
            await world.tearDown(keepFiles: true)
            throw error
        }
        for problem in problems {
            Issue.record("\(problem); rerun with QUIRE_CHAOS_SEED=\(random.seed)")
        }
        if !problems.isEmpty {
            print("ChaosTests: files kept in \(world.root.url.path)\n" + world.timeline.joined(separator: "\n"))
        }
        await world.tearDown(keepFiles: !problems.isEmpty)
    }

    /// The ledger's own checks: the devices' final notes with each kind of damage the run looks
    /// for are caught, in the words the problem says.
    @Test(arguments: LedgerDamage.all)
    func theLedgerFindsEachKindOfDamage(_ damage: LedgerDamage) {
        let problems = LedgerDamage.ledger.problems(in: damage.notes)
        if let expected = damage.expected {
            #expect(problems.contains { $0.contains(expected) }, "\(damage.name): \(problems)")
        } else {
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    private func run(_ world: ChaosWorld) async throws -> [String] {
        // Given: three devices of one account, each with `quire watch`, through a lossy network.
        let started = Date()
        world.proxy.setFaults(lostRequest: 0.06, lostReply: 0.10)

        // When: saves on random devices while everything is killed at random moments…
        let chaosEnd = Date().addingTimeInterval(35)
        while Date() < chaosEnd {
            try await world.step()
        }
        let chaosSeconds = Date().timeIntervalSince(started)

        // …and then the network heals, the server is up and every watcher runs again.
        try await world.heal()
        let quiet = try await world.waitForQuiescence(timeout: 75)
        let healSeconds = Date().timeIntervalSince(started) - chaosSeconds

        // Then: every device holds the same notes, nothing pending, and the ledger's checks hold.
        var problems = quiet.problems
        if let notes = quiet.notes {
            problems += world.ledger.problems(in: notes)
            problems += try await world.freshDeviceProblems(expecting: notes)
        }
        // And no request hung for want of its own body (URLSession resending headers only).
        let proxy = world.proxy.counts
        if proxy.requestsWithoutTheirBody > 0 {
            problems.append(
                "\(proxy.requestsWithoutTheirBody) request(s) reached the server without the body their "
                    + "Content-Length announced and hung up to \(Int(proxy.longestWaitForABody)) s, holding the "
                    + "device's sync lock: after a reply lost on a reused connection, URLSession (libcurl) "
                    + "resent the request with its headers only")
        }
        print(world.summary(notes: quiet.notes, chaos: chaosSeconds, heal: healSeconds))
        return problems
    }
}

// MARK: - The world

/// The server, the proxy, the devices and their watchers, and what the test did to them.
final class ChaosWorld {
    let root: TemporaryDirectory
    let databaseFile: URL
    let proxy: LossyLoopbackProxy
    let devices: [CLIDevice]
    private(set) var server: ServerProcess?
    private var serverPort: UInt16
    private var serverBackAt = Date()
    private var lastServerKill = Date()
    private var watchers: [BackgroundProcess?]
    private var watcherStarts = 0
    private var random: SeededRandom
    private let began = Date()
    private(set) var ledger = SaveLedger()
    private(set) var tally = ChaosTally()
    private(set) var timeline: [String] = []
    private var lineNumber = 0

    private init(
        root: TemporaryDirectory, server: ServerProcess, proxy: LossyLoopbackProxy, devices: [CLIDevice],
        random: SeededRandom
    ) {
        self.root = root
        self.databaseFile = server.databaseFile
        self.server = server
        self.serverPort = UInt16(server.url.port ?? 0)
        self.proxy = proxy
        self.devices = devices
        self.watchers = Array(repeating: nil, count: devices.count)
        self.random = random
    }

    /// Starts the server and the proxy, signs three devices in through the proxy (passing
    /// everything for now) and starts a watcher on each.
    static func start(random: SeededRandom) async throws -> ChaosWorld {
        var random = random
        let root = try TemporaryDirectory(prefix: "quire-chaos")
        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        let proxy = try LossyLoopbackProxy(
            upstreamPort: UInt16(server.url.port ?? 0), seed: random.next(), lifetime: 240)
        let devices = ["phone", "laptop", "tablet"].map { CLIDevice(root, $0) }
        let url = proxy.url.absoluteString
        try await devices[0].ok("register", url, "chaos", "--password-stdin", stdin: "correct horse\n")
        for device in devices.dropFirst() {
            try await device.ok("login", url, "chaos", "--password-stdin", stdin: "correct horse\n")
        }
        let world = ChaosWorld(root: root, server: server, proxy: proxy, devices: devices, random: random)
        for index in devices.indices { try world.startWatcher(index) }
        return world
    }

    func tearDown(keepFiles: Bool) async {
        for watcher in watchers { await watcher?.kill9() }
        await server?.stop()
        proxy.stop()
        if !keepFiles { root.remove() }
    }

    /// One random action, after bringing back the server or a watcher whose time out is over.
    /// An action that takes more than 3 s goes in the timeline.
    func step() async throws {
        try await bringBack()
        let device = Int.random(in: devices.indices, using: &random)
        let roll = Double.random(in: 0..<1, using: &random)
        let started = Date()
        let action: String
        switch roll {
        case ..<0.18:
            action = "quire new"
            try await newNote(on: device, killAfter: nil)
        case ..<0.60:
            action = "quire edit"
            try await edit(on: device, killAfter: nil)
        case ..<0.64:
            action = "quire new, killed"
            try await newNote(on: device, killAfter: random.delay(0.005...0.08))
        case ..<0.70:
            action = "quire edit, killed"
            try await edit(on: device, killAfter: random.delay(0.005...0.08))
        case ..<0.84:
            action = "quire sync, killed"
            try await killedSync(on: device)
        case ..<0.94:
            action = "kill -9 quire watch"
            await killWatcher(device)
        default:
            action = "kill -9 quire-server"
            try await killServer()
        }
        let took = Date().timeIntervalSince(started)
        if took > 3 { note("\(action) on \(name(device)) took \(Self.ms(took))") }
    }

    // MARK: Saves

    private func nextLine(_ device: Int) -> String {
        lineNumber += 1
        let number = String(lineNumber)
        let padded = String(repeating: "0", count: max(0, 4 - number.count)) + number
        return "L\(padded) \(name(device))"
    }

    /// `quire new`, its title and first line unique; killed after `killAfter` seconds when given.
    private func newNote(on device: Int, killAfter: TimeInterval?) async throws {
        let line = nextLine(device)
        let title = "N" + line.dropFirst()
        let result = try await quire(device, ["new", "--title", title, "--body", line], killAfter: killAfter)
        switch Self.ending(result) {
        case .acknowledged:
            ledger.notes[title] = result.output
            ledger.lines[line] = title
            tally.newNotes += 1
        case .killed:
            ledger.maybeTitles.insert(title)
            ledger.maybeLines[line] = title
            tally.killedSaves += 1
            note("kill -9 quire new on \(name(device)) after \(Self.ms(killAfter))")
        case .failed:
            tally.failedSaves.append("new on \(name(device)): exit \(result.exitCode): \(result.stderr)")
        }
    }

    /// `quire edit ID --body …`: appends a unique line to a note the device shows, or (one time in
    /// two) puts it in place of one of the note's lines, which may then go everywhere: this
    /// device replaced it after seeing it (promise 2). Two devices replacing one line differently
    /// at once make a real clash, and a conflict copy.
    ///
    /// The device's sync lock is held from reading the note to saving it, so no pull lands in
    /// between: a save then replaces exactly the text it was computed from. (A pull landing there
    /// would be overwritten by the save, which promise 2 allows for text the device already held,
    /// and the ledger could not tell that from a loss.) A device whose lock stays taken for 2 s
    /// (a sync run waiting on the network) is left alone this time.
    private func edit(on device: Int, killAfter: TimeInterval?) async throws {
        let line = nextLine(device)
        let (pick, replace, place) = (random.next(), random.chance(0.5), random.next())
        let cli = devices[device]
        let executable = try BuiltProducts.executable("quire")
        let lockFile = cli.directory.appendingPathComponent("sync.lock")
        let held = try await DeviceSyncLock.holding(lockFile, timeout: 2) {
            () async throws -> (family: String, replaced: String?, result: ProcessResult)? in
            let notes = try await cli.notes()
            guard !notes.isEmpty else { return nil }
            // Most edits go to the two oldest notes, and most replacements to a note's first line
            // (the one every device holds, where its last line is often its own latest), so that
            // devices often change the same line before they have seen each other's change.
            let hot = notes.sorted { $0.title < $1.title }.prefix(2)
            let target =
                pick % 10 < 7
                ? hot[hot.startIndex + Int(pick / 10 % UInt64(hot.count))] : notes[Int(pick % UInt64(notes.count))]
            var lines = target.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let filled = lines.indices.filter { !lines[$0].isEmpty }
            var replaced: String?
            if replace, let first = filled.first {
                let index = place % 3 != 0 ? first : filled[Int(place / 3 % UInt64(filled.count))]
                replaced = lines[index]
                lines[index] = line
            } else {
                lines.append(line)
            }
            let arguments = [
                "--data-dir", cli.directory.path, "edit", target.id, "--body", lines.joined(separator: "\n"),
            ]
            let result = try await ProcessRunner.run(executable, arguments, timeout: killAfter ?? 60)
            return (SaveLedger.family(of: target, in: notes), replaced, result)
        }
        guard let done = held else {
            tally.busyDevices += 1
            note("edit on \(name(device)) skipped: its sync lock was held for more than 2 s")
            return
        }
        guard let (family, replaced, result) = done else { return }
        switch Self.ending(result) {
        case .acknowledged:
            ledger.lines[line] = family
            tally.edits += 1
            if replaced != nil { tally.replacements += 1 }
        case .killed:
            ledger.maybeLines[line] = family
            tally.killedSaves += 1
            note("kill -9 quire edit on \(name(device)) after \(Self.ms(killAfter))")
        case .failed:
            tally.failedSaves.append("edit on \(name(device)): exit \(result.exitCode): \(result.stderr)")
            return
        }
        if let replaced { ledger.replaced.insert(replaced) }
    }

    // MARK: Kills

    /// `quire sync`, SIGKILLed a few milliseconds in (it may finish first).
    private func killedSync(on device: Int) async throws {
        let delay = random.delay(0.005...0.4)
        let result = try await quire(device, ["sync"], killAfter: delay)
        if Self.ending(result) == .killed {
            tally.killedSyncs += 1
            note("kill -9 quire sync on \(name(device)) after \(Self.ms(delay))")
        } else {
            tally.finishedSyncs += 1
        }
    }

    private func killWatcher(_ device: Int) async {
        guard let watcher = watchers[device] else { return }
        await watcher.kill9()
        watchers[device] = nil
        tally.watcherKills += 1
        note("kill -9 quire watch on \(name(device))")
    }

    /// SIGKILLs the server (at most every 4 s), to come back on the same database and port after
    /// up to 3 s; saves and syncs go on meanwhile.
    private func killServer() async throws {
        guard let server, Date().timeIntervalSince(lastServerKill) > 4 else { return }
        await server.kill9()
        self.server = nil
        lastServerKill = Date()
        serverBackAt = Date().addingTimeInterval(random.delay(0.3...3))
        tally.serverKills += 1
        note("kill -9 quire-server")
    }

    private func bringBack() async throws {
        if server == nil, Date() >= serverBackAt { try await restartServer() }
        for index in devices.indices where watchers[index] == nil && random.chance(0.3) {
            try startWatcher(index)
        }
    }

    /// The same database file and port (the proxy stays where it is); if that port was taken
    /// meanwhile, any port, and the proxy forwards there.
    private func restartServer() async throws {
        do {
            server = try await ServerProcess.start(
                databaseFile: databaseFile, extraArguments: ["--port", "\(serverPort)"], timeout: 10)
        } catch {
            let moved = try await ServerProcess.start(databaseFile: databaseFile)
            serverPort = UInt16(moved.url.port ?? 0)
            proxy.upstreamPort = serverPort
            server = moved
            tally.serverMoves += 1
        }
        note("quire-server back on port \(serverPort)")
    }

    private func startWatcher(_ index: Int) throws {
        watcherStarts += 1
        let name = devices[index].directory.lastPathComponent
        watchers[index] = try BackgroundProcess.start(
            try BuiltProducts.executable("quire"),
            ["--data-dir", devices[index].directory.path, "watch", "--json"],
            outputFile: root.path("watch-\(name)-\(watcherStarts).out"))
    }

    // MARK: Healing

    /// No more faults: the proxy passes everything, the server is up, every watcher runs.
    func heal() async throws {
        proxy.setFaults(lostRequest: 0, lostReply: 0)
        if server == nil { try await restartServer() }
        for index in devices.indices where watchers[index] == nil { try startWatcher(index) }
        note("healed")
    }

    struct Quiescence {
        /// The notes every device holds, once they agree; nil if they never did.
        var notes: [CLINote]?
        var problems: [String]
        var rounds: Int
    }

    /// Syncs every device, again and again, until all hold the same notes with nothing pending,
    /// or `timeout` seconds pass.
    func waitForQuiescence(timeout: TimeInterval) async throws -> Quiescence {
        let deadline = Date().addingTimeInterval(timeout)
        var rounds = 0
        while true {
            rounds += 1
            var states: [DeviceState] = []
            for device in devices {
                let sync = try await ProcessRunner.run(
                    try BuiltProducts.executable("quire"), ["--data-dir", device.directory.path, "sync"], timeout: 20)
                states.append(try await DeviceState.read(device, lastSync: sync))
            }
            let agreed = states.allSatisfy { $0.notes.map(\.text) == states[0].notes.map(\.text) }
            if agreed && states.allSatisfy({ $0.status.pendingCount == 0 }) {
                tally.quiescenceRounds = rounds
                return Quiescence(notes: states[0].notes, problems: [], rounds: rounds)
            }
            if Date() > deadline {
                let report = zip(devices, states).map { device, state in
                    "\(device.directory.lastPathComponent): \(state.notes.count) notes, \(state.status); "
                        + "last sync exit \(state.lastSync.exitCode) \(state.lastSync.stderr)"
                }
                return Quiescence(
                    notes: nil,
                    problems: ["no quiescence within \(Int(timeout)) s: " + report.joined(separator: " | ")],
                    rounds: rounds)
            }
            // A change backing off after failed sends (ChangeRetry) waits its turn: poll, not spin.
            try await Task.sleep(nanoseconds: 200_000_000)
        }
    }

    /// A fourth device, signed in after it all straight to the server, pulls exactly these notes.
    func freshDeviceProblems(expecting notes: [CLINote]) async throws -> [String] {
        guard let server else { return ["the server is down"] }
        let fresh = CLIDevice(root, "fresh")
        try await fresh.ok("login", server.url.absoluteString, "chaos", "--password-stdin", stdin: "correct horse\n")
        try await fresh.ok("sync")
        let pulled = try await fresh.notes().sorted { $0.id < $1.id }
        guard pulled.map(\.text) != notes.map(\.text) else { return [] }
        return ["a fresh device pulled \(pulled.count) notes that differ from the devices' \(notes.count)"]
    }

    // MARK: Plumbing

    enum Ending { case acknowledged, killed, failed }

    private static func ending(_ result: ProcessResult) -> Ending {
        if result.stderr.contains("[killed after ") { return .killed }
        return result.exitCode == 0 ? .acknowledged : .failed
    }

    private func quire(_ device: Int, _ arguments: [String], killAfter: TimeInterval?) async throws -> ProcessResult {
        try await ProcessRunner.run(
            try BuiltProducts.executable("quire"), ["--data-dir", devices[device].directory.path] + arguments,
            timeout: killAfter ?? 60)
    }

    private func name(_ device: Int) -> String { devices[device].directory.lastPathComponent }

    private func note(_ event: String) {
        timeline.append(String(format: "%7.3f s  ", Date().timeIntervalSince(began)) + event)
    }

    private static func ms(_ seconds: TimeInterval?) -> String {
        "\(Int((seconds ?? 0) * 1000)) ms"
    }

    func summary(notes: [CLINote]?, chaos: TimeInterval, heal: TimeInterval) -> String {
        let copies = notes?.filter { $0.conflictOf != nil }.count ?? -1
        return """
            ChaosTests: seed \(random.seed); \(String(format: "%.1f", chaos)) s of chaos, \
            \(String(format: "%.1f", heal)) s to quiescence (\(tally.quiescenceRounds) rounds)
              saves acknowledged: \(tally.newNotes) new, \(tally.edits) edits (\(tally.replacements) replacing a line); \(tally.killedSaves) killed \
            mid-save; \(tally.failedSaves.count) failed by themselves
              kills: \(tally.killedSyncs) quire sync (\(tally.finishedSyncs) finished first), \
            \(tally.watcherKills) quire watch, \(tally.serverKills) quire-server (\(tally.serverMoves) moved port)
              proxy: \(proxy.counts); \(tally.busyDevices) edits skipped on a device busy syncing
              end: \(notes?.count ?? -1) notes, \(copies) conflict copies, \(ledger.lines.count) acknowledged lines
            """ + tally.failedSaves.map { "\n  failed: \($0)" }.joined()
    }
}

/// What one device showed: its notes (sorted by id) and `quire status --json`.
struct DeviceState {
    struct Status: Decodable, CustomStringConvertible {
        var pendingCount: Int
        var stuckCount: Int
        var refusedCount: Int
        var lastError: String?
        var description: String {
            "pending \(pendingCount), stuck \(stuckCount), refused \(refusedCount), last error \(lastError ?? "none")"
        }
    }

    var notes: [CLINote]
    var status: Status
    var lastSync: ProcessResult

    static func read(_ device: CLIDevice, lastSync: ProcessResult) async throws -> DeviceState {
        let notes = try await device.notes().sorted { $0.id < $1.id }
        let status = try JSONDecoder().decode(Status.self, from: Data(try await device.ok("status", "--json").utf8))
        return DeviceState(notes: notes, status: status, lastSync: lastSync)
    }
}

extension CLINote {
    /// What must be the same on every device (the state badge may differ for a moment).
    var text: [String?] { [id, title, body, conflictOf] }

    var lines: [String] { body.split(separator: "\n").map(String.init) }
}

struct ChaosTally {
    var newNotes = 0
    var edits = 0
    var killedSaves = 0
    var failedSaves: [String] = []
    var killedSyncs = 0
    var finishedSyncs = 0
    var watcherKills = 0
    var serverKills = 0
    var serverMoves = 0
    var quiescenceRounds = 0
    var busyDevices = 0
    var replacements = 0
}

// MARK: - The ledger

/// Notes N1 (with a conflict copy) and N2 as they should end, and damaged ways they might.
struct LedgerDamage: Sendable, CustomTestStringConvertible {
    var name: String
    var notes: [CLINote]
    /// What the problem found says; nil: nothing is wrong.
    var expected: String?

    var testDescription: String { name }

    static var ledger: SaveLedger {
        var ledger = SaveLedger()
        ledger.notes = ["N1": "a", "N2": "b"]
        ledger.lines = ["L1": "N1", "L2": "N1", "L3": "N2", "L5": "N1"]
        ledger.maybeLines = ["L4": "N2", "L6": "N2"]
        ledger.lines["L7"] = "N2"
        ledger.replaced = ["L7"]  // replaced by L3, say: gone, and that is no loss
        return ledger
    }

    static let whole = [note("a", "N1", "L1\nL2"), note("b", "N2", "L3\nL4"), note("c", "N1", "L1\nL5", copyOf: "a")]

    static let all = [
        LedgerDamage(name: "nothing wrong", notes: whole),
        LedgerDamage(name: "a lost line", notes: replacing(note("a", "N1", "L1")), expected: "L2 of N1 is lost"),
        LedgerDamage(name: "a note made twice", notes: replacing(note("d", "N1", "L1")), expected: "2 notes titled N1"),
        LedgerDamage(
            name: "a copy of equal text", notes: replacing(note("c", "N1", "L1\nL2", copyOf: "a")),
            expected: "adds nothing"),
        LedgerDamage(
            name: "a line in another note", notes: replacing(note("b", "N2", "L3\nL4\nL2")),
            expected: "L2 of N1 is in N2"),
        LedgerDamage(name: "a line twice", notes: replacing(note("a", "N1", "L1\nL2\nL2")), expected: "L2 2 times"),
        LedgerDamage(
            name: "a line nobody wrote", notes: replacing(note("a", "N1", "L1\nL2\nL9")), expected: "nobody wrote"),
        LedgerDamage(
            name: "a note under another id", notes: whole.filter { $0.id != "b" } + [note("z", "N2", "L3")],
            expected: "acknowledged note N2 (b) is missing"),
        LedgerDamage(
            name: "a copy of a note that is gone", notes: replacing(note("c", "N1", "L1\nL5", copyOf: "x")),
            expected: "not there"),
    ]

    static func note(_ id: String, _ title: String, _ body: String, copyOf original: String? = nil) -> CLINote {
        CLINote(id: id, title: title, body: body, state: "synced", conflictOf: original)
    }

    /// `whole` with `changed` in place of the note with its id, or added.
    static func replacing(_ changed: CLINote) -> [CLINote] {
        whole.filter { $0.id != changed.id } + [changed]
    }
}

/// What the test knows was saved, from the exit codes of the `quire` calls that saved it. Notes
/// are grouped in families: a note made by `quire new` (its title unique) and its conflict copies.
struct SaveLedger {
    /// Acknowledged `quire new`s: title → the id it printed.
    var notes: [String: String] = [:]
    /// Titles of `quire new`s killed mid-flight: each is there once, or not at all.
    var maybeTitles: Set<String> = []
    /// Acknowledged lines → the family (title) they were written into.
    var lines: [String: String] = [:]
    /// Lines of killed saves → their family: there at most once, or not at all.
    var maybeLines: [String: String] = [:]
    /// Lines an edit put another line in place of, having seen them: they may be gone.
    var replaced: Set<String> = []

    /// The title of the note `note` descends from, following `conflictOf`.
    static func family(of note: CLINote, in notes: [CLINote]) -> String {
        let byID = Dictionary(notes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var current = note
        var seen: Set<String> = []
        while let parent = current.conflictOf, let next = byID[parent], seen.insert(parent).inserted {
            current = next
        }
        return current.title
    }

    /// Everything wrong with the notes every device ended with: a lost acknowledged line, a
    /// duplicate note or line, a copy that repeats its original, text in the wrong note.
    func problems(in notes: [CLINote]) -> [String] {
        var problems: [String] = []
        let byID = Dictionary(notes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        if byID.count != notes.count { problems.append("a note id is listed twice") }
        let originals = notes.filter { $0.conflictOf == nil }
        let copies = notes.filter { $0.conflictOf != nil }

        // One note per `quire new`: the acknowledged ones with the id they printed.
        let titles = Dictionary(grouping: originals, by: \.title)
        for (title, group) in titles where group.count > 1 {
            problems.append("\(group.count) notes titled \(title): a duplicate")
        }
        for (title, id) in self.notes where titles[title]?.contains(where: { $0.id == id }) != true {
            problems.append("acknowledged note \(title) (\(id)) is missing")
        }
        for title in titles.keys where self.notes[title] == nil && !maybeTitles.contains(title) {
            problems.append("a note titled \(title) nobody made")
        }
        let expectedCount = self.notes.count + maybeTitles.intersection(titles.keys).count + copies.count
        if notes.count != expectedCount { problems.append("\(notes.count) notes, expected \(expectedCount)") }

        // A conflict copy holds text its original lacks; a resend must never make one.
        for copy in copies {
            guard let original = byID[copy.conflictOf ?? ""] else {
                problems.append("copy \(copy.id) of a note that is not there (\(copy.conflictOf ?? ""))")
                continue
            }
            if Set(copy.lines).isSubset(of: Set(original.lines)) {
                problems.append("copy \(copy.id) adds nothing to \(original.title): a duplicate")
            }
        }

        // Every line once per note, in its own family only; every acknowledged line somewhere.
        var found: Set<String> = []
        for note in notes {
            let family = Self.family(of: note, in: notes)
            for (line, count) in Dictionary(note.lines.map { ($0, 1) }, uniquingKeysWith: +) {
                if count > 1 { problems.append("\(line) \(count) times in \(note.title) (\(note.id))") }
                guard let home = lines[line] ?? maybeLines[line] else {
                    problems.append("\(note.title) holds a line nobody wrote: \(line.debugDescription)")
                    continue
                }
                if home != family { problems.append("\(line) of \(home) is in \(note.title) of \(family)") }
                found.insert(line)
            }
        }
        for (line, family) in lines.sorted(by: { $0.key < $1.key })
        where !found.contains(line) && !replaced.contains(line) {
            let inside = notes.filter { $0.body.contains(line) }.map(\.id)
            problems.append("acknowledged \(line) of \(family) is lost" + (inside.isEmpty ? "" : " (inside \(inside))"))
        }
        return problems
    }
}
