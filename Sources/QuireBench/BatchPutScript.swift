import Foundation

/// A `wrk` script for the batch route's row in ``ServerPutBenchmark``: each request is `POST
/// /v1/notes/batch` with ``notesPerRequest`` new notes (a time-ordered id and idempotency key
/// each, as devices make them: ``WrkRunner/idFunctions``), the same sealed 2 KB payload in each.
///
/// A batch is answered 200 whatever its items' fates, so the script also reads every answer and
/// counts the items not answered 200; its `done` prints the count as "Bad batch items: N", which
/// ``WrkRunner/parse(_:)`` adds to the run's failures.
struct BatchPutScript {
    /// The API's largest batch (`WireRoutes.maxBatchSize`): a device pushing a backlog sends these.
    static let notesPerRequest = 100

    private let runner: WrkRunner

    init(scratch: URL, payload: String, token: String) throws {
        guard let executable = Child.which("wrk") else { throw BenchFailure("wrk is not installed") }
        let script = scratch.appendingPathComponent("batch.lua")
        let lua = """
            \(WrkRunner.keptThreadNumbers)
            \(WrkRunner.idFunctions)
            bad = 0
            function init(args)
              seedIDs(tonumber(args[1]) or 0)
            end
            local payload = "\(payload)"
            function request()
              local items = {}
              for i = 1, \(Self.notesPerRequest) do
                items[i] = '{"op":"put","id":"' .. timeOrderedID() .. '","idempotencyKey":"' .. timeOrderedID()
                  .. '","payload":"' .. payload .. '"}'
              end
              return wrk.format("POST", "/v1/notes/batch", {
                ["Authorization"] = "Bearer \(token)",
                ["Content-Type"] = "application/json",
              }, '{"changes":[' .. table.concat(items, ",") .. ']}')
            end
            function response(status, headers, body)
              if status ~= 200 then return end
              local _, applied = string.gsub(body, '"status":200', '')
              bad = bad + (\(Self.notesPerRequest) - applied)
            end
            function done(summary, latency, requests)
              local total = 0
              for _, thread in ipairs(threads) do total = total + thread:get("bad") end
              io.write("Bad batch items: " .. total .. "\\n")
            end
            """
        try Data(lua.utf8).write(to: script)
        runner = WrkRunner(executable: executable, script: script, timeoutSeconds: 30)
    }

    /// Runs `wrk --latency` with `connections` connections against `url`; `run` makes this run's
    /// ids differ from every other run's.
    func run(url: URL, connections: Int, seconds: Int, run: Int) throws -> WrkRunner.Result {
        try runner.run(url: url, connections: connections, seconds: seconds, run: run)
    }
}
