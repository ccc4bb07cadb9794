import Foundation
import QuireDomain
import QuireServer
import QuireWire

/// A `wrk` script for ``ServerPutBenchmark``'s edits row: each request PUTs a new text of a note
/// that already exists, with the base version it has, as a device saving an edit does (most of a
/// user's saves are edits). The notes are stored first (``seed(_:payload:)``), ``notesPerRun`` for
/// each run so every run starts from version 1; each of wrk's two threads edits its half of them in
/// turn, so a note's next edit is sent ``notesPerRun``/2 requests after its last, long after that one
/// was answered (64 connections have at most 64 requests in flight), and its base version is
/// known: one more for each pass over the notes. A base version that was wrong would be answered
/// 409 and counted as a failure.
struct EditPutScript {
    /// Notes each run edits.
    static let notesPerRun = 20_000
    /// Runs the ids are stored for: the warm-up (run 1) and the measured run (run 2).
    static let runs = 2

    private let runner: WrkRunner

    init(scratch: URL, payload: String, token: String, ids: [NoteID]) throws {
        guard let executable = Child.which("wrk") else { throw BenchFailure("wrk is not installed") }
        guard ids.count == Self.notesPerRun * Self.runs else {
            throw BenchFailure("the edits row needs \(Self.notesPerRun * Self.runs) stored notes, not \(ids.count)")
        }
        let idFile = scratch.appendingPathComponent("edit-ids.txt")
        try Data(ids.map(\.description).joined(separator: "\n").utf8).write(to: idFile)
        let script = scratch.appendingPathComponent("edit.lua")
        let lua = """
            \(WrkRunner.keptThreadNumbers)
            \(WrkRunner.idFunctions)
            statuses = ""
            local notes = {}
            local counter = 0
            function init(args)
              local run = tonumber(args[1]) or 1
              seedIDs(run)
              local first = (run - 1) * \(Self.notesPerRun)
              local index = 0
              for line in io.lines("\(idFile.path)") do
                if index >= first and index < first + \(Self.notesPerRun) and index % 2 == tid - 1 then
                  table.insert(notes, line)
                end
                index = index + 1
              end
            end
            local payload = "\(payload)"
            -- wrk calls request() once on its first thread to check the script, and sends nothing:
            -- that call must not count as an edit, or that thread's first note would fall a version behind.
            local checked = false
            function request()
              if tid == 1 and not checked then
                checked = true
                return wrk.format("GET", "/v1/notes/" .. notes[1])
              end
              local note = notes[counter % #notes + 1]
              local baseVersion = math.floor(counter / #notes) + 1
              counter = counter + 1
              return wrk.format("PUT", "/v1/notes/" .. note, {
                ["Authorization"] = "Bearer \(token)",
                ["Content-Type"] = "application/json",
                ["Idempotency-Key"] = timeOrderedID(),
              }, '{"payload":"' .. payload .. '","baseVersion":' .. baseVersion .. '}')
            end
            function response(status, headers, body)
              if status ~= 200 then statuses = statuses .. " " .. status .. ":" .. string.sub(body, 1, 120) end
            end
            function done(summary, latency, requests)
              for _, thread in ipairs(threads) do io.write("Answers not 200:" .. thread:get("statuses") .. "\\n") end
            end
            """
        try Data(lua.utf8).write(to: script)
        runner = WrkRunner(executable: executable, script: script, timeoutSeconds: 30)
    }

    /// Stores ``notesPerRun`` × ``runs`` new notes (version 1) through `server`'s handler core,
    /// 100 to a batch request, as a device pushing a backlog would. Returns their ids in order.
    static func seed(_ server: BenchServer, payload: String) async throws -> [NoteID] {
        let ids = (0..<notesPerRun * runs).map { _ in NoteID() }
        for start in stride(from: 0, to: ids.count, by: WireRoutes.maxBatchSize) {
            let changes = ids[start..<min(start + WireRoutes.maxBatchSize, ids.count)].map {
                BatchChangeDTO(
                    op: "put", id: $0.description, idempotencyKey: ChangeID().description, payload: payload,
                    baseVersion: nil)
            }
            let response = await server.core.handle(
                HTTPRequest(
                    method: "POST", path: WireRoutes.batch, query: [:],
                    headers: ["Authorization": "Bearer \(server.token)", "Content-Type": "application/json"],
                    body: WireJSON.encode(BatchRequestDTO(changes: Array(changes))), remoteAddress: "127.0.0.1"))
            let answer = try WireJSON.decoder().decode(BatchResponseDTO.self, from: response.body)
            guard response.status == 200, answer.results.allSatisfy({ $0.status == 200 && $0.version == 1 }) else {
                throw BenchFailure("storing the notes to edit got HTTP \(response.status)")
            }
        }
        return ids
    }

    /// Runs `wrk --latency` with `connections` connections against `url`; `run` (1 or 2) chooses
    /// the run's notes.
    func run(url: URL, connections: Int, seconds: Int, run: Int) throws -> WrkRunner.Result {
        try runner.run(url: url, connections: connections, seconds: seconds, run: run)
    }
}
