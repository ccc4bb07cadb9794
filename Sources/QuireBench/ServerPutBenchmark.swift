import Foundation
import QuireClient
import QuireDomain

/// Server PUT throughput, p99 latency and CPU per PUT with 64 concurrent connections: `wrk` PUTs
/// new 2 KB notes to the real server (handler core, SQLite storage, full durability,
/// libmicrohttpd host, in this process) with group commit and without it, and, with the same
/// script, to ``PlainMicroHTTPServer``, which only reads the body and answers a constant: the
/// host layer's own ceiling on this machine. Beside them, the disk's: bare SQLite commits of
/// the same payload into a file opened the same way (``RawCommitRate``).
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
        let grouped = try await BenchServer(directory: try context.directory("put-server"), codec: context.codec)
        let alone = try await BenchServer(
            directory: try context.directory("put-server-alone"), codec: context.codec, groupCommit: false)
        let plain = try PlainMicroHTTPServer()
        let seconds = context.sizes.loadSeconds
        let measured: [Measured]
        let raw: (single: Double, ten: Double, hundred: Double)
        do {
            let targets = [
                (Target(label: "group commit", url: grouped.baseURL), grouped.token),
                (Target(label: "a commit each", url: alone.baseURL), alone.token),
                (Target(label: "plain MHD", url: plain.baseURL), grouped.token),
            ]
            var results: [Measured] = []
            for (target, token) in targets {
                progress("server-put: \(target.label): wrk warm-up, then \(seconds) s")
                guard let wrk = try WrkRunner(scratch: try context.directory("wrk"), payload: payload, token: token)
                else { throw BenchFailure("wrk vanished") }
                _ = try wrk.run(url: target.url, connections: connections, seconds: 1, run: 1)
                let (result, cpu) = try ProcessCPU.measure {
                    try wrk.run(url: target.url, connections: connections, seconds: seconds, run: 2)
                }
                results.append(Measured(wrk: result, cpu: cpu))
            }
            measured = results
            progress("server-put: bare SQLite commits of the same payload, 1, 10 and 100 rows a transaction")
            let directory = try context.directory("raw-commits")
            let rawSeconds = Double(min(seconds, 3))
            raw = (
                try RawCommitRate.rowsPerSecond(
                    directory: directory, payload: payload, rowsPerCommit: 1, seconds: rawSeconds),
                try RawCommitRate.rowsPerSecond(
                    directory: directory, payload: payload, rowsPerCommit: 10, seconds: rawSeconds),
                try RawCommitRate.rowsPerSecond(
                    directory: directory, payload: payload, rowsPerCommit: 100, seconds: rawSeconds)
            )
        } catch {
            plain.stop()
            await grouped.stop()
            await alone.stop()
            throw error
        }
        let commits = await grouped.groupCommits
        plain.stop()
        await grouped.stop()
        await alone.stop()
        return rows(label: label, measured, raw: raw, commits: commits, seconds: seconds)
    }

    private static func rows(
        label: String, _ measured: [Measured], raw: (single: Double, ten: Double, hundred: Double), commits: Int,
        seconds: Int
    ) -> [BenchRow] {
        let (grouped, alone, plain) = (measured[0], measured[1], measured[2])
        let failures = { (run: Measured) in
            run.wrk.failures > 0 ? "; \(run.wrk.failures) of \(run.wrk.requests) requests failed" : ""
        }
        let latency = { (run: Measured) in
            "\(Figure.milliseconds(run.wrk.p99)) (\(Figure.milliseconds(run.wrk.p50)))"
        }
        let perSecond = { (value: Double) in String(format: "%.0f", value) }
        let cpu = { (run: Measured) in String(format: "%.3f ms", run.cpuPerRequest.seconds * 1_000) }
        return [
            BenchRow(
                benchmark: name, label: "\(label), throughput, group commit",
                measured: perSecond(grouped.wrk.requestsPerSecond) + " PUT/s",
                baseline: perSecond(alone.wrk.requestsPerSecond) + " PUT/s a commit each",
                ratio: grouped.wrk.requestsPerSecond / max(alone.wrk.requestsPerSecond, 1e-9),
                note: "wrk -t2 -c\(connections) -d\(seconds)s on the same 2 cores, one account; synchronous=FULL; "
                    + "the writes of the whole run (warm-up included) took \(commits) shared commits"
                    + failures(grouped) + failures(alone)),
            BenchRow(
                benchmark: name, label: "\(label), throughput, ratio to bare SQLite commits",
                measured: perSecond(grouped.wrk.requestsPerSecond) + " PUT/s",
                baseline: perSecond(raw.single) + " single-row commits/s bare SQLite",
                ratio: grouped.wrk.requestsPerSecond / max(raw.single, 1e-9),
                note: "bare SQLite C calls, WAL and synchronous=FULL, the same payload: "
                    + "\(perSecond(raw.ten)) rows/s at 10 rows a commit, \(perSecond(raw.hundred)) at 100"),
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
            BenchRow(
                benchmark: name, label: "\(label), host ceiling",
                measured: perSecond(plain.wrk.requestsPerSecond) + " req/s plain MHD",
                baseline: "p99 " + latency(plain), ratio: nil,
                note: "a libmicrohttpd server in the same threading mode that reads the body and answers a constant"),
        ]
    }
}
