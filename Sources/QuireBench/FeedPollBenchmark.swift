import Foundation
import QuireClient
import QuireDomain
import QuireServer
import QuireWire

/// Issue 13 part 8: feed reads per second for 1,000 devices polling. Each device is an account of
/// its own holding one note, and polls from the cursor it already has, as a device that is up to
/// date does between changes: `GET /v1/notes/changes?since=CURSOR&limit=100`, answered with an
/// empty page. `wrk` sends the devices' polls in turn over 64 connections (``FeedPollScript``),
/// against SQLite and one PostgreSQL instance; the baseline in the same run is `GET /v1/health`
/// on the same server (the host and the HTTP parsing with no storage behind it).
enum FeedPollBenchmark {
    static let name = "feed-poll"
    static let devices = 1_000
    static let connections = 64

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        guard Child.which("wrk") != nil else {
            return [.notMeasured(name, "feed reads", reason: "wrk is not installed (apt-get install -y wrk)")]
        }
        let devices = context.options.quick ? 50 : Self.devices
        let sqlite = try await BenchServer(directory: try context.directory("poll-sqlite"), codec: context.codec)
        let postgres: PostgresInstances
        do {
            postgres = try await PostgresInstances(directory: try context.directory("poll-postgres"), accounts: devices)
        } catch {
            await sqlite.stop()
            throw error
        }
        var rows: [BenchRow] = []
        do {
            var sqliteTokens = [sqlite.token]
            while sqliteTokens.count < devices {
                sqliteTokens.append(try await BenchAccount.make(server: sqlite.core).token)
            }
            let targets: [(String, NotesServer, URL, [String])] = [
                ("SQLite, 1 instance", sqlite.core, sqlite.baseURL, sqliteTokens),
                ("PostgreSQL, 1 instance", postgres.first.core, postgres.first.baseURL, postgres.tokens),
            ]
            let seconds = context.sizes.loadSeconds
            for (label, core, url, tokens) in targets {
                progress("feed-poll: \(label): one note and a cursor for each of \(tokens.count) devices")
                var polls: [FeedPollScript.Poll] = []
                for token in tokens {
                    polls.append(
                        FeedPollScript.Poll(token: token, cursor: try await upToDateCursor(core, token: token, context))
                    )
                }
                let scratch = try context.directory("poll-wrk")
                let script = try FeedPollScript(scratch: scratch, polls: polls)
                let health = try FeedPollScript(scratch: scratch, health: true)
                progress("feed-poll: \(label), \(connections) connections, \(seconds) s")
                _ = try script.run(url: url, connections: connections, seconds: 1)
                let feed = try script.run(url: url, connections: connections, seconds: seconds)
                let bare = try health.run(url: url, connections: connections, seconds: seconds)
                rows.append(row(label, feed: feed, health: bare, devices: tokens.count, seconds: seconds))
            }
        } catch {
            await postgres.stop()
            await sqlite.stop()
            throw error
        }
        await postgres.stop()
        await sqlite.stop()
        return rows
    }

    /// Stores one note for the device's account and returns the cursor after it.
    private static func upToDateCursor(_ core: NotesServer, token: String, _ context: BenchContext) async throws
        -> String
    {
        let id = NoteID()
        let payload = try context.codec.seal(NoteContent(title: "Poll", body: "one note"), noteID: id)
        let auth = ["Authorization": "Bearer \(token)"]
        let put = await core.handle(
            HTTPRequest(
                method: "PUT", path: WireRoutes.note(id.description), query: [:],
                headers: auth.merging(
                    ["Content-Type": "application/json", WireRoutes.idempotencyKeyHeader: UUID().uuidString]
                ) { $1 },
                body: WireJSON.encode(PutNoteRequestDTO(payload: payload, baseVersion: nil)),
                remoteAddress: "127.0.0.1"))
        guard (200..<300).contains(put.status) else {
            throw BenchFailure("feed-poll: seeding PUT answered \(put.status)")
        }
        let listing = await core.handle(
            HTTPRequest(
                method: "GET", path: WireRoutes.changes, query: ["limit": "100"], headers: auth, body: Data(),
                remoteAddress: "127.0.0.1"))
        guard listing.status == 200 else { throw BenchFailure("feed-poll: listing answered \(listing.status)") }
        return try WireJSON.decoder().decode(ChangesPageDTO.self, from: listing.body).nextCursor
    }

    private static func row(
        _ label: String, feed: WrkRunner.Result, health: WrkRunner.Result, devices: Int, seconds: Int
    ) -> BenchRow {
        let failures =
            feed.failures + health.failures > 0
            ? "; \(feed.failures) of \(feed.requests) polls and \(health.failures) of \(health.requests) health checks failed"
            : ""
        return BenchRow(
            benchmark: name, label: "feed reads, \(Figure.count(devices)) devices polling, \(label)",
            measured: String(format: "%.0f reads/s, p99 ", feed.requestsPerSecond) + Figure.milliseconds(feed.p99),
            baseline: String(format: "%.0f GET /v1/health/s, p99 ", health.requestsPerSecond)
                + Figure.milliseconds(health.p99),
            ratio: feed.requestsPerSecond / max(health.requestsPerSecond, 1e-9),
            note: "wrk -t2 -c\(connections) -d\(seconds)s, each device's poll in turn from its up-to-date cursor "
                + "(an empty page); ratio is reads/s over health checks/s on the same server" + failures)
    }
}
