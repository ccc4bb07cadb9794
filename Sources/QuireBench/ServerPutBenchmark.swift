import Foundation
import QuireClient
import QuireDomain
import QuireServer

/// Server PUT throughput, p99 latency and CPU per PUT with 64 concurrent connections: `wrk` PUTs
/// new 2 KB notes to the real server (handler core, SQLite storage, full durability,
/// libmicrohttpd host, in this process) with group commit and without it, with group commit
/// again for new notes with random ids (as devices of earlier releases made them) and for edits of
/// notes already stored (``EditPutScript``), and, with the same
/// script, to ``PlainMicroHTTPServer``, which only reads the body and answers a constant: the
/// host layer's own ceiling on this machine. Beside them, the disk's: bare SQLite commits of
/// the same payload into a file opened the same way (``RawCommitRate``), and bare SQLite edits
/// of as many stored notes (``RawEditRate``).
enum ServerPutBenchmark {
    static let name = "server-put"
    static let connections = 64

    /// One server under load and what the rows call it.
    private struct Target {
        var label: String
        var url: URL
    }

    /// A run's wrk figures and this process's CPU seconds during it.
    private struct Measured {
        var wrk: WrkRunner.Result
        var cpu: Double
        var cpuPerRequest: Duration { .seconds(cpu / Double(max(wrk.requests, 1))) }
    }

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let label = "server PUT, \(connections) connections"
        let text = context.corpus.note(1)
        let payload = try context.codec.seal(NoteContent(title: text.title, body: text.body), noteID: NoteID())
        guard Child.which("wrk") != nil else {
            return [.notMeasured(name, label, reason: "wrk is not installed (apt-get install -y wrk)")]
        }
        // Each run writes more notes into its one account than the default quota allows.
        let grouped = try await BenchServer(
            directory: try context.directory("put-server"), codec: context.codec, quota: BenchServer.loadQuota)
        let alone = try await BenchServer(
            directory: try context.directory("put-server-alone"), codec: context.codec, groupCommit: false,
            quota: BenchServer.loadQuota)
        let randomIDs = try await BenchServer(
            directory: try context.directory("put-server-random"), codec: context.codec, quota: BenchServer.loadQuota)
        let edits = try await BenchServer(
            directory: try context.directory("put-server-edits"), codec: context.codec, quota: BenchServer.loadQuota)
        let batched = try await BenchServer(
            directory: try context.directory("put-server-batch"), codec: context.codec, quota: BenchServer.loadQuota)
        let plain = try PlainMicroHTTPServer()
        let seconds = context.sizes.loadSeconds
        let measured: [Measured]
        var batches: [Measured] = []
        var raw = BareSQLite()
        do {
            // The disk's single-row rate moves between moments of this shared machine: measured
            // before the server's runs and after them, the ratio taken against their mean.
            progress("server-put: bare SQLite single-row commits of the same payload, before the server's runs")
            raw.singleBefore = try RawCommitRate.rowsPerSecond(
                directory: try context.directory("raw-commits"), payload: payload, rowsPerCommit: 1,
                seconds: Double(min(seconds, 3)))
            let targets: [(Target, String, WrkRunner.NoteIDs)] = [
                (Target(label: "group commit", url: grouped.baseURL), grouped.token, .timeOrdered),
                (Target(label: "a commit each", url: alone.baseURL), alone.token, .timeOrdered),
                (Target(label: "plain MHD", url: plain.baseURL), grouped.token, .timeOrdered),
                (Target(label: "group commit, random note ids", url: randomIDs.baseURL), randomIDs.token, .random),
            ]
            var results: [Measured] = []
            for (target, token, noteIDs) in targets {
                progress("server-put: \(target.label): wrk warm-up, then \(seconds) s")
                guard
                    let wrk = try WrkRunner(
                        scratch: try context.directory("wrk"), payload: payload, token: token, noteIDs: noteIDs)
                else { throw BenchFailure("wrk vanished") }
                _ = try wrk.run(url: target.url, connections: connections, seconds: 1, run: 1)
                let (result, cpu) = try ProcessCPU.measure {
                    try wrk.run(url: target.url, connections: connections, seconds: seconds, run: 2)
                }
                results.append(Measured(wrk: result, cpu: cpu))
            }
            progress(
                "server-put: group commit, edits: storing \(EditPutScript.notesPerRun * EditPutScript.runs) notes, "
                    + "wrk warm-up, then \(seconds) s")
            let editScript = try EditPutScript(
                scratch: try context.directory("wrk"), payload: payload, token: edits.token,
                ids: try await EditPutScript.seed(edits, payload: payload))
            _ = try editScript.run(url: edits.baseURL, connections: connections, seconds: 1, run: 1)
            let (edited, editCPU) = try ProcessCPU.measure {
                try editScript.run(url: edits.baseURL, connections: connections, seconds: seconds, run: 2)
            }
            results.append(Measured(wrk: edited, cpu: editCPU))
            measured = results
            let script = try BatchPutScript(
                scratch: try context.directory("wrk"), payload: payload, token: batched.token)
            for (index, connections) in batchConnections.enumerated() {
                progress("server-put: batch route, \(connections) connection(s): wrk warm-up, then \(seconds) s")
                _ = try script.run(url: batched.baseURL, connections: connections, seconds: 1, run: 3 + 2 * index)
                let (result, cpu) = try ProcessCPU.measure {
                    try script.run(url: batched.baseURL, connections: connections, seconds: seconds, run: 4 + 2 * index)
                }
                batches.append(Measured(wrk: result, cpu: cpu))
            }
            progress("server-put: bare SQLite commits of the same payload, 1, 10 and 100 rows a transaction")
            let directory = try context.directory("raw-commits")
            let rawSeconds = Double(min(seconds, 3))
            raw.singleAfter = try RawCommitRate.rowsPerSecond(
                directory: directory, payload: payload, rowsPerCommit: 1, seconds: rawSeconds)
            raw.ten = try RawCommitRate.rowsPerSecond(
                directory: directory, payload: payload, rowsPerCommit: 10, seconds: rawSeconds)
            raw.hundred = try RawCommitRate.rowsPerSecond(
                directory: directory, payload: payload, rowsPerCommit: 100, seconds: rawSeconds)
            progress("server-put: bare SQLite edits of the same payload, 10 and 100 a transaction")
            let storedNotes = EditPutScript.notesPerRun * EditPutScript.runs
            raw.editsTen = try RawEditRate.editsPerSecond(
                directory: directory, payload: payload, notes: storedNotes, editsPerCommit: 10, seconds: rawSeconds)
            raw.editsHundred = try RawEditRate.editsPerSecond(
                directory: directory, payload: payload, notes: storedNotes, editsPerCommit: 100, seconds: rawSeconds)
        } catch {
            plain.stop()
            for server in [grouped, alone, randomIDs, edits, batched] { await server.stop() }
            throw error
        }
        let commits = await grouped.groupCommits
        plain.stop()
        for server in [grouped, alone, randomIDs, edits, batched] { await server.stop() }
        return rows(label: label, measured, raw: raw, commits: commits, seconds: seconds)
            + batchRows(batches, raw: raw, seconds: seconds)
    }

    /// The disk's ceilings measured beside the server: bare SQLite's new rows a second at 1 (before
    /// the server's runs and after them), 10 and 100 a commit (``RawCommitRate``) and its edits a second at 10 and 100 (``RawEditRate``).
    private struct BareSQLite {
        var singleBefore = 0.0
        var singleAfter = 0.0
        var single: Double { (singleBefore + singleAfter) / 2 }
        var ten = 0.0
        var hundred = 0.0
        var editsTen = 0.0
        var editsHundred = 0.0
    }

    /// The batch route's connection counts: one device pushing a backlog (a batch a commit, as
    /// bare SQLite's 100 rows a commit), then several at once.
    static let batchConnections = [1, 8]

    /// The batch route's rows: notes a second against bare SQLite's rows a second at 100 a
    /// commit, the issue's "within 2× of SQLite's own group-commit row rate" on one connection.
    private static func batchRows(
        _ batches: [Measured], raw: BareSQLite, seconds: Int
    ) -> [BenchRow] {
        zip(batchConnections, batches).map { connections, run in
            let notesPerSecond = run.wrk.requestsPerSecond * Double(BatchPutScript.notesPerRequest)
            let ratio = notesPerSecond / max(raw.hundred, 1e-9)
            let cpuPerNote = run.cpu / Double(max(run.wrk.requests * BatchPutScript.notesPerRequest, 1))
            let clean = run.wrk.failures == 0
            return BenchRow(
                benchmark: name,
                label: "server batch route, \(BatchPutScript.notesPerRequest) new notes a request, "
                    + "\(connections) connection\(connections == 1 ? "" : "s")",
                measured: String(format: "%.0f notes/s", notesPerSecond),
                baseline: String(format: "%.0f rows/s bare SQLite, 100 a commit", raw.hundred),
                ratio: ratio, target: connections == 1 ? "≥ 0.5× bare SQLite" : "-",
                met: connections == 1 ? ratio >= 0.5 && clean : nil,
                note: "wrk -c\(connections) -d\(seconds)s, POST /v1/notes/batch, one account, synchronous=FULL; "
                    + String(
                        format: "p99 %@ a batch; server CPU %.3f ms a note", Figure.milliseconds(run.wrk.p99),
                        cpuPerNote * 1_000)
                    + (clean ? "" : "; \(run.wrk.failures) items or requests failed"))
        }
    }

    private static func rows(
        label: String, _ measured: [Measured], raw: BareSQLite, commits: Int,
        seconds: Int
    ) -> [BenchRow] {
        let (grouped, alone, plain) = (measured[0], measured[1], measured[2])
        let (randomIDs, edits) = (measured[3], measured[4])
        let failures = { (run: Measured, which: String) in
            run.wrk.failures > 0 ? "; \(which)" + run.wrk.failureNote : ""
        }
        let latency = { (run: Measured) in
            "\(Figure.milliseconds(run.wrk.p99)) (\(Figure.milliseconds(run.wrk.p50)))"
        }
        let perSecond = { (value: Double) in String(format: "%.0f", value) }
        let cpu = { (run: Measured) in String(format: "%.3f ms", run.cpuPerRequest.seconds * 1_000) }
        // A row for another kind of PUT, its PUT/s against new notes' with group commit.
        let againstNewNotes = { (run: Measured, kind: String, baseline: String, what: String) in
            BenchRow(
                benchmark: name, label: "\(label), throughput, group commit, \(kind)",
                measured: perSecond(run.wrk.requestsPerSecond) + " PUT/s",
                baseline: perSecond(grouped.wrk.requestsPerSecond) + " PUT/s \(baseline)",
                ratio: run.wrk.requestsPerSecond / max(grouped.wrk.requestsPerSecond, 1e-9),
                note: what + "; server CPU " + cpu(run) + " a PUT, p99 " + latency(run) + failures(run, kind))
        }
        return [
            BenchRow(
                benchmark: name, label: "\(label), throughput, group commit",
                measured: perSecond(grouped.wrk.requestsPerSecond) + " PUT/s",
                baseline: perSecond(alone.wrk.requestsPerSecond) + " PUT/s a commit each",
                ratio: grouped.wrk.requestsPerSecond / max(alone.wrk.requestsPerSecond, 1e-9),
                note: "wrk -t2 -c\(connections) -d\(seconds)s on the same 2 cores, one account; synchronous=FULL; "
                    + "the writes of the whole run (warm-up included) took \(commits) shared commits"
                    + failures(grouped, "group commit") + failures(alone, "a commit each")),
            BenchRow(
                benchmark: name, label: "\(label), throughput, ratio to bare SQLite commits",
                measured: perSecond(grouped.wrk.requestsPerSecond) + " PUT/s",
                baseline: perSecond(raw.single) + " single-row commits/s bare SQLite",
                ratio: grouped.wrk.requestsPerSecond / max(raw.single, 1e-9),
                note: "bare SQLite C calls, WAL and synchronous=FULL, the same payload under time-ordered keys: "
                    + "single-row commits the mean of \(perSecond(raw.singleBefore))/s before the server's runs and "
                    + "\(perSecond(raw.singleAfter))/s after them; \(perSecond(raw.ten)) rows/s at 10 rows a commit, "
                    + "\(perSecond(raw.hundred)) at 100"),
            BenchRow(
                benchmark: name, label: "\(label), latency p99 (p50), group commit",
                measured: latency(grouped), baseline: latency(alone) + " a commit each",
                ratio: grouped.wrk.p99.seconds / max(alone.wrk.p99.seconds, 1e-9)),
            BenchRow(
                benchmark: name, label: "\(label), server CPU per PUT, group commit",
                measured: cpu(grouped), baseline: cpu(alone) + " a commit each",
                ratio: grouped.cpuPerRequest.seconds / max(alone.cpuPerRequest.seconds, 1e-12),
                note: "this process's user and system CPU time (getrusage; not wrk's) over the run, per answered "
                    + "request; plain MHD: \(cpu(plain)) per request"),
            againstNewNotes(
                randomIDs, "random note ids", "time-ordered note ids",
                "new notes with random (version 4) ids, as devices of earlier releases made them, into a "
                    + "server of their own"),
            againstNewNotes(
                edits, "edits of stored notes", "new notes",
                "each of \(EditPutScript.notesPerRun) stored notes edited in turn with its base version, "
                    + "into a server of its own (the edit keeps the text before it in the history)"),
            BenchRow(
                benchmark: name, label: "\(label), edits, ratio to bare SQLite edits",
                measured: perSecond(edits.wrk.requestsPerSecond) + " PUT/s",
                baseline: perSecond(raw.editsHundred) + " edits/s bare SQLite, 100 a commit",
                ratio: edits.wrk.requestsPerSecond / max(raw.editsHundred, 1e-9),
                // The batch route's standard: within 2× of SQLite's own group-commit rate.
                target: "≥ 0.5× bare SQLite",
                met: edits.wrk.requestsPerSecond >= 0.5 * raw.editsHundred && edits.wrk.failures == 0,
                note: "bare SQLite C calls, WAL and synchronous=FULL, a 64 MiB cache: as many notes stored, then "
                    + "each edit keeps the row's text in a history table under (id, version) and writes the new "
                    + "one, the notes in random order (no feed, no idempotency record); "
                    + "\(perSecond(raw.editsTen)) edits/s at 10 a commit"),
            BenchRow(
                benchmark: name, label: "\(label), host ceiling",
                measured: perSecond(plain.wrk.requestsPerSecond) + " req/s plain MHD",
                baseline: "p99 " + latency(plain), ratio: nil,
                note: "a libmicrohttpd server in the same threading mode that reads the body and answers a constant"),
        ]
    }
}
