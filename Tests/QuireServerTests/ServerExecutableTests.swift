import Foundation
import QuireSpawn
import QuireTestSupport
import QuireWire
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `quire-server` binary, run as a user would: arguments in, output and exit status out.
final class ServerExecutableTests {
    struct BinaryMissing: Error, CustomStringConvertible {
        var description: String { "quire-server is not built next to the tests; run swift build" }
    }

    /// The built `quire-server`, next to the test bundle in the build directory.
    static func binary() throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for _ in 0..<4 {
            directory.deleteLastPathComponent()
            let candidate = directory.appendingPathComponent("quire-server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw BinaryMissing()
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the binary to completion, waiting off the concurrency pool (ProcessRunner).
    static func run(_ arguments: [String]) async throws -> Run {
        let result = try await ProcessRunner.run(try binary(), arguments)
        return Run(status: result.exitCode, stdout: result.stdout, stderr: result.stderr)
    }

    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("quire-server-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    var database: String { directory.appendingPathComponent("server.sqlite").path }

    /// The server allocates with jemalloc, not glibc's malloc (Package.swift, `CJemalloc`):
    /// asked to, jemalloc reports its statistics at exit, which it does only once its own malloc
    /// was called. Linked after libc, or not at all, it would never be.
    @Test func theServerAllocatesWithJemalloc() async throws {
        let result = try await ProcessRunner.run(
            try Self.binary(), ["--help"], environment: ["MALLOC_CONF": "stats_print:true"])

        #expect(result.exitCode == 0)
        #expect(result.stderr.contains("jemalloc statistics"), "\(result.stderr.prefix(300))")
    }

    @Test func helpPrintsUsageAndExitsZero() async throws {
        let run = try await Self.run(["--help"])

        #expect(run.status == 0)
        #expect(run.stdout.contains("--access-token-ttl SECONDS"))
        #expect(run.stdout.contains("for N days (default 60): it signs in again"))
        #expect(run.stdout.contains("--session-max-days N         sign every device out N days after it signed in"))
        #expect(run.stdout.contains("--min-kdf-iterations N"))
        #expect(run.stdout.contains("--auth-hash-iterations N"))
        #expect(
            run.stdout.contains("--connections-per-address N  connections one client address may hold (default 128"))
        #expect(run.stdout.contains("--request-deadline SECONDS"))
        #expect(run.stdout.contains("--long-polls-per-account N   long-polls one account may hold"))
        #expect(run.stdout.contains("(default 64)"))
        #expect(!run.stdout.contains("add-account"))
        // The history's retention defaults, said where an operator looks (issue 10).
        #expect(run.stdout.contains("every version for 24 hours, then one a day for 30 days"))
        #expect(run.stdout.contains("--history-mib-per-account N"))
        // The abuse limits' defaults (issue 12, items 6 and 8).
        #expect(run.stdout.contains("--trusted-proxy ADDR[,ADDR...]"))
        #expect(
            run.stdout.contains("--registration-burst N       accounts one address may register at once (default 10)"))
        #expect(run.stdout.contains("--max-notes-per-account N    live notes one account may keep (default 100000)"))
        #expect(
            run.stdout.contains("--max-mib-per-account N      note payload MiB one account may keep (default 1024)"))
    }

    @Test(arguments: ["proxy.example", "10.0.0.1,", "", "1.2.3.4/24"])
    func aTrustedProxyThatIsNotAnAddressIsAUsageError(_ value: String) async throws {
        let run = try await Self.run(["--trusted-proxy", value, "--db", database])

        #expect(run.status == 64)
        #expect(run.stderr.contains("--trusted-proxy needs IP addresses"))
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    @Test func unknownFlagPrintsUsageToStandardErrorAndExits64() async throws {
        let run = try await Self.run(["--colour", "blue"])

        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("unknown option --colour") && run.stderr.contains("Usage:"))
    }

    @Test func removedAddAccountIsAUsageErrorThatSaysWhatToDo() async throws {
        let run = try await Self.run(["add-account", "alice", "--db", database])

        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("add-account was removed") && run.stderr.contains("quire"))
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    @Test(arguments: [
        ["--access-token-ttl", "0"], ["--min-kdf-iterations", "many"],
        ["--auth-hash-iterations=-5"], ["--history-hours", "-1"], ["--history-mib-per-account", "lots"],
        ["--session-idle-days", "0"], ["--session-max-days", "36501"],
    ])
    func badNumberFlagIsAUsageError(_ arguments: [String]) async throws {
        let run = try await Self.run(arguments + ["--db", database])

        #expect(run.status == 64)
        #expect(run.stderr.contains("must be a whole number"))
    }

    @Test func servesUntilTerminatedThenExitsZero() async throws {
        let process = try ChildProcess(
            [
                try Self.binary().path, "--port", "0", "--db", database, "--min-kdf-iterations", "1000",
                "--auth-hash-iterations", "1000", "--access-token-ttl", "120",
            ], stdout: .pipe, stderr: .null)
        let out = try #require(process.output)
        let lines = AsyncStream<String> { continuation in
            out.readabilityHandler = { handle in
                let data = handle.availableData
                if data.isEmpty {
                    continuation.finish()
                } else {
                    continuation.yield(String(decoding: data, as: UTF8.self))
                }
            }
        }
        defer { process.signal(SIGTERM) }

        var printed = ""
        for await chunk in lines {
            printed += chunk
            if printed.contains("\n") { break }
        }
        let prefix = "quire-server listening on "
        #expect(printed.hasPrefix(prefix) && printed.hasSuffix("\n"))
        let base = String(printed.dropFirst(prefix.count).dropLast())
        let urlSession = URLSession(configuration: .ephemeral)
        let (created, _) = try await Self.post(
            base + WireRoutes.accounts, ServerHarness.registration("alice"), urlSession)
        #expect(created == 201)
        let (signedIn, sessionBody) = try await Self.post(
            base + WireRoutes.sessions,
            CreateSessionRequestDTO(
                username: "alice", authKey: ServerHarness.authKey("alice").base64EncodedString(),
                deviceName: "test"), urlSession)
        #expect(signedIn == 200)
        let session = try WireJSON.decoder().decode(SessionDTO.self, from: sessionBody)
        #expect(session.expiresIn == 120)
        var request = URLRequest(url: try #require(URL(string: base + WireRoutes.changes)))
        request.setValue("Bearer \(session.accessToken)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await urlSession.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try WireJSON.decoder().decode(ChangesPageDTO.self, from: data).changes.isEmpty)

        process.signal(SIGTERM)
        let exited = await eventually(timeout: .seconds(10)) { !process.isRunning }
        out.readabilityHandler = nil

        #expect(exited)
        #expect(process.exitStatus == 0)
    }

    @Test func connectionsPerAddressFlagCapsOneClientAddress() async throws {
        let process = try ChildProcess(
            [
                try Self.binary().path, "--port", "0", "--db", database, "--connections-per-address", "2",
                "--request-deadline", "20",
            ], stdout: .pipe, stderr: .null)
        defer { process.signal(SIGTERM) }
        let port = try #require(await Self.listeningPort(process))

        let sockets = try (0..<3).map { _ in try LoopbackSocket(port: port, source: "127.0.0.2") }
        let ends = await onThread { sockets.map { $0.readToEnd(timeout: .milliseconds(500)).closed } }
        let health = await onThread { LoopbackExchange.send(port: port, "GET", "/v1/health") }

        #expect(ends == [false, false, true])
        #expect(health?.status == 200)
    }

    /// The port from the server's first line ("quire-server listening on http://…:PORT"), or nil
    /// when it ended before printing one.
    static func listeningPort(_ process: ChildProcess) async -> UInt16? {
        guard let out = process.output else { return nil }
        return await onThread {
            var printed = Data()
            while !printed.contains(UInt8(ascii: "\n")) {
                let chunk = out.availableData
                if chunk.isEmpty { break }
                printed += chunk
            }
            let line = String(decoding: printed, as: UTF8.self)
            return line.split(separator: ":").last.flatMap { UInt16($0.prefix { $0.isNumber }) }
        }
    }

    private static func post<T: Encodable>(_ url: String, _ body: T, _ session: URLSession)
        async throws -> (Int, Data)
    {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = WireJSON.encode(body)
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}
