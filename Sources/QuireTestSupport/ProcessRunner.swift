import Foundation

/// Runs a built command-line program to completion and captures what it printed.
public struct ProcessResult: Sendable {
    public var exitCode: Int32
    public var stdout: String
    public var stderr: String

    /// stdout without its trailing newline.
    public var output: String {
        stdout.hasSuffix("\n") ? String(stdout.dropLast()) : stdout
    }
}

public enum ProcessRunner {
    /// Runs `executable` with `arguments`, feeding `stdin`, and waits for it (at most `timeout`
    /// seconds, then it is killed and the result says so with exit code 137).
    ///
    /// The waiting happens on a Dispatch thread, never on a Swift concurrency thread: blocking
    /// those (there are as many as cores) would starve every other test running in parallel.
    public static func run(
        _ executable: URL, _ arguments: [String], stdin: String? = nil,
        environment: [String: String] = [:], timeout: TimeInterval = 60
    ) async throws -> ProcessResult {
        try await offPool {
            try runBlocking(executable, arguments, stdin: stdin, environment: environment, timeout: timeout)
        }
    }

    /// Runs `work` on a Dispatch thread and resumes with its result.
    public static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try work() })
            }
        }
    }

    /// The blocking form of ``run(_:_:stdin:environment:timeout:)``; call it only off the
    /// concurrency pool.
    public static func runBlocking(
        _ executable: URL, _ arguments: [String], stdin: String? = nil,
        environment: [String: String] = [:], timeout: TimeInterval = 60
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes while the process runs, so a chatty program never blocks on a full pipe.
        let collected = Collected()
        let group = DispatchGroup()
        for (pipe, isOut) in [(out, true), (err, false)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, isOut: isOut)
                group.leave()
            }
        }
        let finished = DispatchSemaphore(value: 0)
        let exit = ExitBox()
        DispatchQueue.global().async {
            exit.set(ChildExit.wait(for: process))
            finished.signal()
        }
        var timedOut = false
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
        }
        group.wait()
        let (stdout, stderr) = collected.values
        return ProcessResult(
            exitCode: timedOut ? 137 : exit.value,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self) + (timedOut ? "\n[killed after \(timeout)s]" : ""))
    }

    private final class ExitBox: @unchecked Sendable {
        // Guarded by `lock`; written once by the waiting thread.
        private let lock = NSLock()
        private var code: Int32 = 0

        func set(_ value: Int32) { lock.withLock { code = value } }
        var value: Int32 { lock.withLock { code } }
    }

    private final class Collected: @unchecked Sendable {
        // Guarded by `lock`; written once per pipe from two reader threads.
        private let lock = NSLock()
        private var out = Data()
        private var err = Data()

        func set(_ data: Data, isOut: Bool) {
            lock.lock()
            defer { lock.unlock() }
            if isOut { out = data } else { err = data }
        }

        var values: (Data, Data) {
            lock.lock()
            defer { lock.unlock() }
            return (out, err)
        }
    }
}
