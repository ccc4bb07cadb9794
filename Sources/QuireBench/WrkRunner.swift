import Foundation

/// Drives `wrk` with a Lua script that PUTs a new note per request: a time-ordered note id and
/// `Idempotency-Key` each time, as devices make them (``idFunctions``; or a random note id, as
/// devices of earlier releases made them: ``NoteIDs``), the same sealed 2 KB payload, and a
/// bearer token: with several tokens (several accounts), each request takes the next in turn.
struct WrkRunner {
    /// How the script makes a new note's id.
    enum NoteIDs {
        /// Version 7, as devices make them since stop 37 (``QuireDomain/NoteID``).
        case timeOrdered
        /// Version 4, as devices of earlier releases made them (and every note they made keeps).
        case random

        /// The Lua call that makes one.
        var lua: String {
            switch self {
            case .timeOrdered: "timeOrderedID()"
            case .random: "randomID()"
            }
        }
    }

    struct Result {
        var requestsPerSecond: Double
        var p50: Duration
        var p99: Duration
        var requests: Int
        /// Non-2xx answers plus socket errors: a run with any is not a clean measurement.
        var failures: Int
        /// wrk's own lines for them ("Non-2xx or 3xx responses: 12", "Socket errors: …"), so a
        /// report says which kind they were.
        var failureLines: [String] = []

        /// ": 12 of 9000 requests failed (Non-2xx or 3xx responses: 12)", or "" for a clean run.
        var failureNote: String {
            guard failures > 0 else { return "" }
            return ": \(failures) of \(requests) requests failed (\(failureLines.joined(separator: "; ")))"
        }
    }

    let executable: String
    let script: URL

    /// How long wrk waits for an answer before counting the request failed (its `--timeout`).
    var timeoutSeconds = 2

    /// A runner for a script written elsewhere (``FeedPollScript``).
    init(executable: String, script: URL, timeoutSeconds: Int) {
        self.executable = executable
        self.script = script
        self.timeoutSeconds = timeoutSeconds
    }

    /// Lua that numbers wrk's threads 1, 2, … as `tid` in each, so scripts make distinct requests.
    static let threadNumbers = """
        local nextThread = 1
        function setup(thread)
          thread:set("tid", nextThread)
          nextThread = nextThread + 1
        end
        """

    /// ``threadNumbers`` that also keeps each thread in `threads`, so a script's `done` can read
    /// what every thread counted (`thread:get`).
    static let keptThreadNumbers = """
        local threads = {}
        local nextThread = 1
        function setup(thread)
          thread:set("tid", nextThread)
          table.insert(threads, thread)
          nextThread = nextThread + 1
        end
        """

    /// Lua for `timeOrderedID()`, a version 7 UUID (the Unix time in milliseconds, read through
    /// LuaJIT's FFI, then random bits) as devices make their note and change ids (``NoteID``,
    /// ``ChangeID``), so the server's keys land in its indexes where they do in use (the bare SQLite
    /// baseline, ``RawCommitRate``, inserts such keys too), and `randomID()`, a random (version 4)
    /// UUID, as devices of earlier releases made their note ids. `seedIDs(run)` seeds each thread
    /// apart (call it in `init`).
    static let idFunctions = """
        local ffi = require("ffi")
        ffi.cdef[[
          typedef struct { long seconds; long nanoseconds; } quire_timespec;
          int clock_gettime(int clock, quire_timespec *now);
        ]]
        local now = ffi.new("quire_timespec")
        local function r16() return math.random(0, 65535) end
        function seedIDs(run)
          math.randomseed(os.time() + tid * 7919 + run * 104729)
        end
        function randomID()
          return string.format("%04x%04x-%04x-4%03x-%04x-%04x%04x%04x",
            r16(), r16(), r16(), math.random(0, 4095), 32768 + math.random(0, 16383), r16(), r16(), r16())
        end
        function timeOrderedID()
          ffi.C.clock_gettime(0, now)
          local ms = tonumber(now.seconds) * 1000 + math.floor(tonumber(now.nanoseconds) / 1000000)
          return string.format("%08x-%04x-7%03x-%04x-%04x%04x%04x",
            math.floor(ms / 65536), ms % 65536, math.random(0, 4095), 32768 + math.random(0, 16383),
            r16(), r16(), r16())
        end
        """

    /// nil when `wrk` is not installed.
    init?(scratch: URL, payload: String, token: String, noteIDs: NoteIDs = .timeOrdered) throws {
        try self.init(scratch: scratch, payload: payload, tokens: [token], noteIDs: noteIDs)
    }

    /// nil when `wrk` is not installed; `tokens` must not be empty.
    init?(scratch: URL, payload: String, tokens: [String], noteIDs: NoteIDs = .timeOrdered) throws {
        guard let executable = Child.which("wrk") else { return nil }
        self.executable = executable
        script = scratch.appendingPathComponent("put-\(noteIDs).lua")
        let lua = """
            \(Self.threadNumbers)
            \(Self.idFunctions)
            local counter = 0
            function init(args)
              seedIDs(tonumber(args[1]) or 0)
            end
            local body = '{"payload":"\(payload)","baseVersion":null}'
            local tokens = { \(tokens.map { "\"\($0)\"" }.joined(separator: ", ")) }
            function request()
              counter = counter + 1
              local token = tokens[(counter + tid) % #tokens + 1]
              return wrk.format("PUT", "/v1/notes/" .. \(noteIDs.lua), {
                ["Authorization"] = "Bearer " .. token,
                ["Content-Type"] = "application/json",
                ["Idempotency-Key"] = timeOrderedID(),
              }, body)
            end
            """
        try Data(lua.utf8).write(to: script)
    }

    /// Runs `wrk -t2 -c CONNECTIONS -d SECONDS --latency` against `url` (one thread for one
    /// connection: wrk needs a connection per thread); `run` makes this run's ids differ from
    /// every other run's.
    func run(url: URL, connections: Int, seconds: Int, run: Int) throws -> Result {
        let (status, output) = try Child.run(
            executable,
            [
                "-t\(min(2, connections))", "-c\(connections)", "--timeout", "\(timeoutSeconds)s", "-d\(seconds)s",
                "--latency", "-s", script.path,
                url.absoluteString, "--", "\(run)",
            ])
        let text = String(decoding: output, as: UTF8.self)
        guard status == 0 else { throw BenchFailure("wrk failed (\(status)): \(text)") }
        return try Self.parse(text)
    }

    /// Reads requests/s, the 50% and 99% latencies, the request count and the failures from wrk's
    /// report.
    static func parse(_ text: String) throws -> Result {
        var result = Result(requestsPerSecond: 0, p50: .zero, p99: .zero, requests: 0, failures: 0)
        for rawLine in text.split(separator: "\n") {
            let fields = rawLine.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first == "Requests/sec:", fields.count > 1 {
                result.requestsPerSecond = Double(fields[1]) ?? 0
            } else if first == "50%", fields.count > 1 {
                result.p50 = duration(String(fields[1])) ?? .zero
            } else if first == "99%", fields.count > 1 {
                result.p99 = duration(String(fields[1])) ?? .zero
            } else if fields.count > 2, fields[1] == "requests", fields[2] == "in" {
                result.requests = Int(first) ?? 0
            } else if rawLine.hasPrefix("Bad batch items:"), let last = fields.last {
                // ``BatchPutScript``'s count of items a 200 batch answered otherwise.
                result.failures += Int(last) ?? 0
                result.failureLines.append(rawLine.trimmingCharacters(in: .whitespaces))
            } else if rawLine.hasPrefix("Answers not 200: ") {
                // ``EditPutScript``'s statuses and the start of each answer, for the failure note.
                result.failureLines.append(rawLine.trimmingCharacters(in: .whitespaces))
            } else if rawLine.contains("Non-2xx or 3xx responses:"), let last = fields.last {
                result.failures += Int(last) ?? 0
                result.failureLines.append(rawLine.trimmingCharacters(in: .whitespaces))
            } else if first == "Socket", rawLine.contains("errors:") {
                result.failureLines.append(rawLine.trimmingCharacters(in: .whitespaces))
                for (index, field) in fields.enumerated()
                where index + 1 < fields.count
                    && ["connect", "read", "write", "timeout"].contains(field)
                {
                    result.failures += Int(fields[index + 1].trimmingCharacters(in: .punctuationCharacters)) ?? 0
                }
            }
        }
        guard result.requestsPerSecond > 0 else { throw BenchFailure("could not read wrk's output: \(text)") }
        return result
    }

    /// "812.00us", "1.23ms", "2.01s" → Duration.
    static func duration(_ text: String) -> Duration? {
        let units: [(String, Double)] = [("us", 1e-6), ("ms", 1e-3), ("s", 1), ("m", 60)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            guard let value = Double(text.dropLast(suffix.count)) else { return nil }
            return .nanoseconds(Int64(value * scale * 1e9))
        }
        return nil
    }
}
