import Foundation
import QuireClient
import QuireDomain
import QuireServer
import QuireTestSupport

/// Issue 13 part 8: PUT throughput and p99 at 1, 8 and 64 connections, side by side in one run,
/// for the stores a deployment chooses between: SQLite (one instance, `synchronous=FULL`, with
/// group commit as it ships and with `--group-commit off`) and
/// PostgreSQL (durable: `fsync` and `synchronous_commit` on, as it ships) with one instance, one
/// instance behind haproxy, and two instances behind haproxy (docs/deploying.md's
/// configuration). Every server is the real `NotesServer` core behind the real libmicrohttpd
/// host, in this process; `wrk` PUTs a new 2 KB note per request (``WrkRunner``), each request
/// for the next of ``accounts`` accounts in turn: a server's users write at once, and each
/// account's writes serialize (its feed is commit-ordered under the account's row lock), so one
/// account alone would measure one lock, not the store. wrk waits up to 30 s for an answer, so a
/// slow answer counts in the latency rather than as a failure.
///
/// The configurations take turns at each connection count, so the machine's noise falls on all
/// of them; each run follows a 1 s warm-up of its own.
enum PutScaleBenchmark {
    static let name = "put-scale"
    static let connectionCounts = [1, 8, 64]
    static let accounts = 64

    /// One configuration under load: what the rows call it, where wrk sends its PUTs, and the
    /// script with that server's token.
    private struct Target {
        var label: String
        var url: URL
        var wrk: WrkRunner
    }

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let text = context.corpus.note(2)
        let payload = try context.codec.seal(NoteContent(title: text.title, body: text.body), noteID: NoteID())
        guard Child.which("wrk") != nil else {
            return [.notMeasured(name, "PUT scale", reason: "wrk is not installed (apt-get install -y wrk)")]
        }
        let sqlite = try await BenchServer(directory: try context.directory("scale-sqlite"), codec: context.codec)
        let alone = try await BenchServer(
            directory: try context.directory("scale-sqlite-alone"), codec: context.codec, groupCommit: false)
        let postgres: PostgresInstances
        do {
            postgres = try await PostgresInstances(
                directory: try context.directory("scale-postgres"), accounts: accounts)
        } catch {
            await sqlite.stop()
            await alone.stop()
            throw error
        }
        guard
            var sqliteScript = try WrkRunner(
                scratch: try context.directory("scale-wrk"), payload: payload,
                tokens: try await Self.tokens(sqlite)),
            var aloneScript = try WrkRunner(
                scratch: try context.directory("scale-wrk-alone"), payload: payload,
                tokens: try await Self.tokens(alone)),
            var postgresScript = try WrkRunner(
                scratch: try context.directory("scale-wrk-pg"), payload: payload, tokens: postgres.tokens)
        else { throw BenchFailure("wrk vanished") }
        sqliteScript.timeoutSeconds = 30
        aloneScript.timeoutSeconds = 30
        postgresScript.timeoutSeconds = 30
        let targets = [
            Target(label: "SQLite, 1 instance", url: sqlite.baseURL, wrk: sqliteScript),
            Target(label: "SQLite, 1 instance, a commit each", url: alone.baseURL, wrk: aloneScript),
            Target(label: "PostgreSQL, 1 instance", url: postgres.first.baseURL, wrk: postgresScript),
            Target(label: "PostgreSQL, 1 instance via haproxy", url: postgres.oneViaBalancer, wrk: postgresScript),
            Target(label: "PostgreSQL, 2 instances via haproxy", url: postgres.balancer.url, wrk: postgresScript),
        ]

        let seconds = context.sizes.loadSeconds
        var rows: [BenchRow] = []
        var runNumber = 10
        do {
            for connections in connectionCounts {
                var results: [WrkRunner.Result] = []
                for target in targets {
                    progress(
                        "put-scale: \(target.label) (\(target.url.absoluteString)), \(connections) connection(s), \(seconds) s"
                    )
                    runNumber += 2
                    _ = try target.wrk.run(url: target.url, connections: connections, seconds: 1, run: runNumber)
                    results.append(
                        try target.wrk.run(
                            url: target.url, connections: connections, seconds: seconds, run: runNumber + 1))
                }
                rows += Self.rows(targets.map(\.label), results, connections: connections, seconds: seconds)
            }
        } catch {
            await postgres.stop()
            await sqlite.stop()
            await alone.stop()
            throw error
        }
        await postgres.stop()
        await sqlite.stop()
        await alone.stop()
        return rows
    }

    /// The server's first account's token and those of ``accounts`` - 1 more.
    private static func tokens(_ server: BenchServer) async throws -> [String] {
        var tokens = [server.token]
        while tokens.count < accounts {
            tokens.append(try await BenchAccount.make(server: server.core).token)
        }
        return tokens
    }

    /// One row per configuration at `connections`, each beside SQLite's figure of the same count.
    private static func rows(_ labels: [String], _ results: [WrkRunner.Result], connections: Int, seconds: Int)
        -> [BenchRow]
    {
        let sqlite = results[0]
        return zip(labels, results).enumerated().map { index, pair in
            let (label, result) = pair
            let figure = { (result: WrkRunner.Result) in
                String(format: "%.0f PUT/s, p99 ", result.requestsPerSecond) + Figure.milliseconds(result.p99)
                    + " (p50 \(Figure.milliseconds(result.p50)))"
            }
            let failures = result.failures > 0 ? "; wrk" + result.failureNote : ""
            return BenchRow(
                benchmark: name,
                label: "PUT at \(connections) connection\(connections == 1 ? "" : "s"), \(label)",
                measured: figure(result), baseline: index == 0 ? "-" : "SQLite: " + figure(sqlite),
                ratio: index == 0 ? nil : result.requestsPerSecond / max(sqlite.requestsPerSecond, 1e-9),
                note: "wrk -t\(min(2, connections)) -c\(connections) -d\(seconds)s --timeout 30s on the same 2 "
                    + "cores, \(accounts) accounts in turn; ratio is PUT/s over SQLite's" + failures)
        }
    }
}
