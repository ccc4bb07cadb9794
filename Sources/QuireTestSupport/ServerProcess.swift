import Foundation

/// A real `quire-server` process on a free loopback port, for end-to-end and crash tests.
public final class ServerProcess: @unchecked Sendable {
    // The Process is only touched from the test that owns this object; the reader thread only
    // writes `startupLines` under `lock`.
    public let databaseFile: URL
    public private(set) var url: URL
    private let process: Process
    private let lock = NSLock()

    /// Starts the server on `127.0.0.1:0` with `databaseFile`, and waits (up to `timeout`) for its
    /// "listening on" line, off the concurrency pool.
    public static func start(
        databaseFile: URL, extraArguments: [String] = [], timeout: TimeInterval = 20
    ) async throws -> ServerProcess {
        try await ProcessRunner.offPool {
            try ServerProcess(databaseFile: databaseFile, extraArguments: extraArguments, timeout: timeout)
        }
    }

    /// The blocking form of ``start(databaseFile:extraArguments:timeout:)``.
    public init(databaseFile: URL, extraArguments: [String] = [], timeout: TimeInterval = 20) throws {
        self.databaseFile = databaseFile
        let executable = try BuiltProducts.executable("quire-server")
        process = Process()
        process.executableURL = executable
        process.arguments = ["--port", "0", "--db", databaseFile.path] + extraArguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.standardError
        try process.run()
        let found = DispatchSemaphore(value: 0)
        let box = URLBox()
        let handle = out.fileHandleForReading
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
            process.terminate()
            throw ServerProcessError(message: "quire-server did not report its address within \(timeout)s")
        }
        self.url = url
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// SIGTERM, then waits (off the concurrency pool) for a clean exit. Returns the exit status.
    @discardableResult
    public func stop() async -> Int32 {
        (try? await ProcessRunner.offPool { self.stopBlocking() }) ?? -1
    }

    /// `kill -9`, waiting off the concurrency pool.
    public func kill9() async {
        _ = try? await ProcessRunner.offPool { self.kill9Blocking() }
    }

    /// SIGTERM without waiting: for clean-up paths that cannot await.
    public func terminate() {
        if process.isRunning { process.terminate() }
    }

    @discardableResult
    public func stopBlocking() -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// `kill -9`: no chance to flush or clean up.
    public func kill9Blocking() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Runs `quire-server add-account NAME --db FILE` and returns the printed token.
    public static func addAccount(_ name: String, databaseFile: URL) async throws -> String {
        let result = try await ProcessRunner.run(
            try BuiltProducts.executable("quire-server"), ["add-account", name, "--db", databaseFile.path])
        guard result.exitCode == 0, !result.output.isEmpty else {
            throw ServerProcessError(message: "add-account failed (\(result.exitCode)): \(result.stderr)")
        }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
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
