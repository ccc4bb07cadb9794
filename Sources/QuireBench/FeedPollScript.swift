import Foundation

/// A `wrk` script for ``FeedPollBenchmark``: each request is the next device's poll from its
/// cursor (`GET /v1/notes/changes?since=CURSOR&limit=100` with that device's token), or, for the
/// baseline, `GET /v1/health`. ``WrkRunner`` runs it and reads the report.
struct FeedPollScript {
    struct Poll {
        var token: String
        /// base64url (the server's cursors): safe in a query string as it is.
        var cursor: String
    }

    private let runner: WrkRunner

    init(scratch: URL, polls: [Poll]) throws {
        let entries = polls.map { "{ \"\($0.token)\", \"\($0.cursor)\" }" }.joined(separator: ",\n  ")
        try self.init(
            scratch: scratch, name: "poll.lua",
            lua: """
                local polls = {
                  \(entries)
                }
                \(WrkRunner.threadNumbers)
                local counter = 0
                function request()
                  counter = counter + 1
                  local poll = polls[(counter * 2 + tid) % #polls + 1]
                  return wrk.format("GET", "/v1/notes/changes?since=" .. poll[2] .. "&limit=100", {
                    ["Authorization"] = "Bearer " .. poll[1],
                  })
                end
                """)
    }

    init(scratch: URL, health: Bool) throws {
        try self.init(
            scratch: scratch, name: "health.lua",
            lua: """
                function request()
                  return wrk.format("GET", "/v1/health")
                end
                """)
    }

    private init(scratch: URL, name: String, lua: String) throws {
        guard let executable = Child.which("wrk") else { throw BenchFailure("wrk is not installed") }
        let script = scratch.appendingPathComponent(name)
        try Data(lua.utf8).write(to: script)
        runner = WrkRunner(executable: executable, script: script, timeoutSeconds: 30)
    }

    /// Runs `wrk -t2 -c CONNECTIONS -d SECONDS --latency --timeout 30s` against `url` (the script
    /// takes no run number: each poll reads, none writes).
    func run(url: URL, connections: Int, seconds: Int) throws -> WrkRunner.Result {
        try runner.run(url: url, connections: connections, seconds: seconds, run: 0)
    }
}
