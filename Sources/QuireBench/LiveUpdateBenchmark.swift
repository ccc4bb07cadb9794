import Foundation
import QuireClient
import QuireDomain
import QuireWire

/// Live update (issue 5): an edit saved on device A until it is visible on device B, both online
/// through a real server on loopback.
///
/// A saves an edit of one note and runs its engine's `syncOnce()` at once (no debounce: a
/// `SyncController` on A would add its debounce, 300 ms by default, on top). B runs a
/// `SyncController` holding a long-poll open (`wait=25`) and a reader of its notes stream. The
/// figure runs from the moment A's save returns to the moment B's notes stream delivers the new
/// text. Both devices hold ``notesPerDevice`` notes. Baseline on the same server: a bare client's
/// PUT of the same sealed note until another bare client's long-poll returns with it (the network
/// floor: no device database, no pull, no stream), plus the round trip of `GET /v1/health`.
enum LiveUpdateBenchmark {
    static let name = "live-update"
    static let notesPerDevice = 100
    /// A person's pause between two saves, so each edit meets a long-poll already waiting.
    static let thinkTime = Duration.milliseconds(40)
    static let warmUp = 5
    static let deadline = Duration.seconds(10)

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let server = try await BenchServer(directory: try context.directory("live-server"), codec: context.codec)
        do {
            let rows = try await measureDevices(context, server: server)
            await server.stop()
            return rows
        } catch {
            await server.stop()
            throw error
        }
    }

    private static func measureDevices(_ context: BenchContext, server: BenchServer) async throws -> [BenchRow] {
        let edits = context.sizes.liveEdits
        let ids = try await server.seed(count: notesPerDevice, corpus: context.corpus).ids
        let target = ids[ids.count / 2]
        let (databaseA, engineA, _) = try await device("live-a", context: context, server: server)
        let (databaseB, engineB, apiB) = try await device("live-b", context: context, server: server)
        guard let original = try await databaseA.noteRow(id: target) else {
            throw BenchFailure("live-update: the edited note is missing on device A")
        }

        let watcher = NoteArrivalWatcher()
        watcher.expect(original.body)
        let reader = Task {
            for await notes in LocalNotesRepository(records: databaseB).notes() {
                if let note = notes.first(where: { $0.id == target }) { watcher.offer(note.body) }
            }
        }
        defer { reader.cancel() }
        let controller = SyncController(
            engine: engineB, records: databaseB, api: apiB, longPollWait: 25)
        await controller.start()
        guard await watcher.arrival(within: deadline) != nil else {
            await controller.stop()
            throw BenchFailure("live-update: device B never showed the note")
        }

        progress("live-update: \(edits) edits on A, each until visible on B")
        var latencies = Samples()
        var syncTimes = Samples()
        let clock = ContinuousClock()
        do {
            for round in 0..<(edits + warmUp) {
                try await Task.sleep(for: thinkTime)
                let body = NoteCorpus.edited(original.body, round: round + 1)
                watcher.expect(body)
                try await databaseA.saveNote(id: target, title: original.title, body: body)
                let saved = clock.now
                let (report, syncTime) = await measureAsync { await engineA.syncOnce() }
                guard report.failure == nil, report.pushed == 1 else {
                    throw BenchFailure("live-update: A's sync failed: \(String(describing: report.failure))")
                }
                guard let arrived = await watcher.arrival(within: deadline) else {
                    throw BenchFailure("live-update: edit \(round) never became visible on B")
                }
                guard round >= warmUp else { continue }
                latencies.append(arrived - saved)
                syncTimes.append(syncTime)
            }
        } catch {
            await controller.stop()
            throw error
        }
        let runsOnB = await controller.state.completedRuns
        await controller.stop()

        progress("live-update: baseline, \(edits) PUTs each waking a bare long-poll")
        let (wakes, health) = try await baseline(server: server, rounds: edits)
        let met = latencies.median < .milliseconds(100)
        let detail =
            "A: save, then syncOnce at once (median \(Figure.milliseconds(syncTimes.median)): the push; "
            + "no pull when the put's answer shows nothing else changed); B: SyncController, long-poll wait=25, "
            + "\(runsOnB) runs; \(notesPerDevice) notes per device, each B emission re-reads them all. "
            + "Bare GET /v1/health round trip: median \(Figure.milliseconds(health.median)), "
            + "p99 \(Figure.milliseconds(health.p99)). A controller on A would add its debounce "
            + "(300 ms by default)"
        return [
            BenchRow(
                benchmark: name,
                label: "edit on A visible on B via long-poll, median of \(Figure.count(edits)) edits",
                measured: Figure.milliseconds(latencies.median),
                baseline: "\(Figure.milliseconds(wakes.median)) PUT→bare long-poll",
                ratio: latencies.median.seconds / wakes.median.seconds, target: "median < 100 ms",
                met: met, note: detail),
            BenchRow(
                benchmark: name,
                label: "edit on A visible on B via long-poll, p99 of \(Figure.count(edits)) edits",
                measured: Figure.milliseconds(latencies.p99),
                baseline: "\(Figure.milliseconds(wakes.p99)) PUT→bare long-poll",
                ratio: latencies.p99.seconds / wakes.p99.seconds,
                note: "p90 \(Figure.milliseconds(latencies.percentile(0.9))) (baseline "
                    + "\(Figure.milliseconds(wakes.percentile(0.9)))); slowest \(Figure.milliseconds(latencies.percentile(1)))"
            ),
        ]
    }

    /// A device database that already holds every note on the server, and its engine over HTTP.
    private static func device(_ name: String, context: BenchContext, server: BenchServer)
        async throws -> (NotesDatabase, NotesSyncEngine, NotesAPIClient)
    {
        let database = try NotesDatabase(
            fileURL: try context.directory(name).appendingPathComponent("notes.sqlite"))
        let api = try await server.deviceClient(name)
        let engine = NotesSyncEngine(
            records: database, api: api, codec: server.codec,
            account: AccountID("bench"), pageLimit: 500)
        let report = await engine.syncOnce()
        guard report.failure == nil, report.received == notesPerDevice else {
            throw BenchFailure("live-update: \(name)'s first sync failed: \(String(describing: report.failure))")
        }
        return (database, engine, api)
    }

    /// The network floor: a bare client PUTs a new version of one note while another bare client
    /// holds `GET /v1/notes/changes?wait=25&limit=1`; from the PUT's start to the long-poll's
    /// answer. Then the round trip of `GET /v1/health`.
    private static func baseline(server: BenchServer, rounds: Int) async throws -> (wakes: Samples, health: Samples) {
        let writer = try await server.deviceClient("baseline-writer")
        let poller = try await server.deviceClient("baseline-poller")
        var page = try await poller.changes(since: nil, limit: WireRoutes.maxPageLimit, wait: 0)
        var cursor = Cursor(page.nextCursor)
        while page.hasMore {
            page = try await poller.changes(since: cursor, limit: WireRoutes.maxPageLimit, wait: 0)
            cursor = Cursor(page.nextCursor)
        }
        let id = NoteID()
        let payload = try server.codec.seal(NoteContent(title: "live", body: "baseline"), noteID: id)
        var version: Int?
        var wakes = Samples()
        let clock = ContinuousClock()
        for round in 0..<(rounds + warmUp) {
            let since = cursor
            let poll = Task { () throws -> (ChangesPageDTO, ContinuousClock.Instant) in
                let page = try await poller.changes(since: since, limit: 1, wait: 25)
                return (page, clock.now)
            }
            try await Task.sleep(for: thinkTime)
            let start = clock.now
            guard
                case .accepted(let newVersion, _, _, _) = try await writer.put(
                    id, payload: payload, baseVersion: version, change: ChangeID())
            else { throw BenchFailure("live-update: a baseline PUT was refused") }
            version = newVersion
            let (woken, at) = try await poll.value
            guard !woken.changes.isEmpty else { throw BenchFailure("live-update: the bare long-poll woke empty") }
            cursor = Cursor(woken.nextCursor)
            if round >= warmUp { wakes.append(at - start) }
        }
        let transport = LiveTransport.make(baseURL: server.baseURL)
        var health = Samples()
        for round in 0..<(rounds + warmUp) {
            let (response, time) = try await measureAsync {
                try await transport.send(TransportRequest(method: "GET", path: "/v1/health"))
            }
            guard response.status == 200 else { throw BenchFailure("GET /v1/health got \(response.status)") }
            if round >= warmUp { health.append(time) }
        }
        return (wakes, health)
    }
}
