import Foundation
import QuireSpawn

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real `quire-server` process on a free loopback port, for end-to-end and crash tests.
public final class ServerProcess: @unchecked Sendable {
    // The child is only signalled and waited on from the test that owns this object; the reader
    // thread only writes `box` before signalling `found`.
    /// What `--db` names: a SQLite file's path or a `postgres://` URI.
    public let database: String
    public private(set) var url: URL
    private let process: ChildProcess

    /// The SQLite file the server keeps its data in (meaningless for a `postgres://` database).
    public var databaseFile: URL { URL(fileURLWithPath: database) }

    /// How long a start waits for the "listening on" line by default: 60 s. Alone the server reports
    /// in well under a second, but in the test command's parallel pass the machine's two cores are
    /// shared by every suite, and 20 s was once not enough (`CLICommandTests`, stop 36). A server
    /// that never starts still fails the test, a minute later.
    public static let startDeadline: TimeInterval = 60

    /// Starts the server on `127.0.0.1:0` with `databaseFile`, and waits (up to `timeout`) for its
    /// "listening on" line, off the concurrency pool.
    public static func start(
        databaseFile: URL, extraArguments: [String] = [], timeout: TimeInterval = ServerProcess.startDeadline
    ) async throws -> ServerProcess {
        try await ProcessRunner.offPool {
            try ServerProcess(databaseFile: databaseFile, extraArguments: extraArguments, timeout: timeout)
        }
    }

    /// Starts the server on `127.0.0.1:0` with `--db database` (a SQLite file's path or a
    /// `postgres://` URI), and waits (up to `timeout`) for its "listening on" line, off the
    /// concurrency pool.
    public static func start(
        database: String, extraArguments: [String] = [], timeout: TimeInterval = ServerProcess.startDeadline
    ) async throws -> ServerProcess {
        try await ProcessRunner.offPool {
            try ServerProcess(database: database, extraArguments: extraArguments, timeout: timeout)
        }
    }

    /// The blocking form of ``start(databaseFile:extraArguments:timeout:)``.
    public convenience init(
        databaseFile: URL, extraArguments: [String] = [], timeout: TimeInterval = ServerProcess.startDeadline
    ) throws {
        try self.init(database: databaseFile.path, extraArguments: extraArguments, timeout: timeout)
    }

    /// The blocking form of ``start(database:extraArguments:timeout:)``.
    public init(database: String, extraArguments: [String] = [], timeout: TimeInterval = ServerProcess.startDeadline)
        throws
    {
        self.database = database
        let executable = try BuiltProducts.executable("quire-server")
        process = try ChildProcess(
            [executable.path, "--port", "0", "--db", database]
                // Tests register many accounts from loopback; a test of the limit passes its own.
                + ["--registration-burst", "100000"] + extraArguments, stdout: .pipe)
        let found = DispatchSemaphore(value: 0)
        let box = URLBox()
        let handle = process.output!
        Thread.detachNewThread {
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                let text = String(decoding: buffer, as: UTF8.self)
                if box.url == nil, let range = text.range(of: "listening on ") {
                    let rest = text[range.upperBound...]
                    if let newline = rest.firstIndex(of: "\n"), let url = URL(string: String(rest[..<newline])) {
                        box.url = url
                        found.signal()
                    }
                }
            }
        }
        guard found.wait(timeout: .now() + timeout) == .success, let url = box.url else {
            process.signal(SIGTERM)
            throw ServerProcessError(message: "quire-server did not report its address within \(timeout)s")
        }
        self.url = url
    }

    public var pid: Int32 { process.pid }
    public var isRunning: Bool { process.isRunning }

    /// SIGTERM, then waits (off the concurrency pool) for a clean exit. Returns the exit status.
    @discardableResult
    public func stop() async -> Int32 {
        (try? await ProcessRunner.offPool { self.stopBlocking() }) ?? -1
    }

    /// `kill -9` at once, then waiting for the exit off the concurrency pool.
    ///
    /// The signal is sent here, not on the thread that waits: when those waits ran on Dispatch,
    /// in the parallel pass every such thread could be busy waiting for other tests' processes,
    /// and a kill sent from there came after the whole burst it was meant to cut
    /// (KilledServerTests: 10 kills of 10 with every write already answered, 2026-12-02). They
    /// run on threads of their own now (ProcessRunnerTests).
    public func kill9() async {
        process.signal(SIGKILL)
        _ = try? await ProcessRunner.offPool { self.process.wait() }
    }

    /// SIGTERM without waiting: for clean-up paths that cannot await.
    public func terminate() {
        process.signal(SIGTERM)
    }

    @discardableResult
    public func stopBlocking() -> Int32 {
        process.signal(SIGTERM)
        return process.wait()
    }

    /// `kill -9`: no chance to flush or clean up.
    public func kill9Blocking() {
        process.signal(SIGKILL)
        process.wait()
    }

    /// Registers `name` on the database (through a short-lived `quire-server` on it, with a
    /// random auth key) and returns an access token of a new session, valid for 15 minutes.
    /// Stands in for the removed `add-account` until the CLI signs in by itself.
    public static func addAccount(_ name: String, databaseFile: URL) async throws -> String {
        let server = try await start(databaseFile: databaseFile)
        defer { server.terminate() }
        let authKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let kdf: [String: Any] = [
            "algorithm": "pbkdf2-sha256", "salt": Data(count: 16).base64EncodedString(),
            "iterations": 600_000,
        ]
        _ = try await server.post(
            "/v1/accounts",
            [
                "username": name, "authKey": authKey, "kdf": kdf,
                "wrappedNotesKey": Data(count: 60).base64EncodedString(),
            ], expecting: 201)
        let session = try await server.post(
            "/v1/sessions", ["username": name, "authKey": authKey, "deviceName": "test"],
            expecting: 200)
        _ = await server.stop()
        guard let token = session["accessToken"] as? String else {
            throw ServerProcessError(message: "sign-in answered no accessToken")
        }
        return token
    }

    private func post(_ path: String, _ body: [String: Any], expecting status: Int) async throws
        -> [String: Any]
    {
        var request = URLRequest(url: url.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == status else {
            throw ServerProcessError(
                message: "POST \(path) answered \(String(decoding: data, as: UTF8.self))")
        }
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    private final class URLBox: @unchecked Sendable {
        // Written once by the reader thread before `found` is signalled, read after the wait.
        var url: URL?
    }
}

public struct ServerProcessError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
