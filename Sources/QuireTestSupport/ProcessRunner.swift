import Foundation
import QuireCrypto
import QuireSpawn

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
    /// The waiting happens on a thread of its own, never on a Swift concurrency thread: blocking
    /// those (there are as many as cores) would starve every other test running in parallel.
    public static func run(
        _ executable: URL, _ arguments: [String], stdin: String? = nil,
        environment: [String: String] = [:], timeout: TimeInterval = 60
    ) async throws -> ProcessResult {
        try await offPool {
            try runBlocking(executable, arguments, stdin: stdin, environment: environment, timeout: timeout)
        }
    }

    /// Runs `work` on a thread of its own and resumes with its result.
    ///
    /// Not on Dispatch's global queue: on Linux it grows by about a thread a second, so under a
    /// parallel run a wait queued there could sit behind other tests' waits for a minute
    /// (ProcessRunnerTests).
    public static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await BlockingWork.wait(work)
    }

    /// Runs `work` on a thread of its own; `group` is left when it is done.
    private static func onOwnThread(_ group: DispatchGroup, _ work: @escaping @Sendable () -> Void) {
        group.enter()
        Thread.detachNewThread {
            work()
            group.leave()
        }
    }

    /// The blocking form of ``run(_:_:stdin:environment:timeout:)``; call it only off the
    /// concurrency pool.
    public static func runBlocking(
        _ executable: URL, _ arguments: [String], stdin: String? = nil,
        environment: [String: String] = [:], timeout: TimeInterval = 60
    ) throws -> ProcessResult {
        _ = Self.ignoreBrokenPipes
        let child = try ChildProcess(
            [executable.path] + arguments, environment: environment, stdin: .pipe, stdout: .pipe, stderr: .pipe)
        // Feed stdin and read both pipes while the program runs, so that a chatty program never
        // blocks on a full pipe (a program that exits without reading gets no SIGPIPE to us).
        let collected = Collected()
        let group = DispatchGroup()
        onOwnThread(group) {
            if let stdin, let input = child.input {
                do {
                    try input.write(contentsOf: Data(stdin.utf8))
                } catch {
                    // The program stopped reading (it exited early): the test sees it said so.
                    collected.noteStdinFailure(error)
                }
            }
            try? child.input?.close()
        }
        for (handle, isOut) in [(child.output, true), (child.errorOutput, false)] {
            guard let handle else { continue }
            onOwnThread(group) {
                let data = (try? handle.readToEnd()) ?? Data()
                collected.set(data, isOut: isOut)
            }
        }
        var status = child.wait(timeout: timeout)
        let timedOut = status == nil
        if timedOut {
            child.signal(SIGKILL)
            status = child.wait()
        }
        group.wait()
        let (stdout, stderr) = collected.values
        return ProcessResult(
            exitCode: timedOut ? 137 : status ?? 255,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self) + collected.stdinNote
                + (timedOut ? "\n[killed after \(timeout)s]" : ""))
    }

    /// Writing to a pipe whose reader exited is an error to ignore, not a signal that ends the
    /// test process.
    private static let ignoreBrokenPipes: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()

    private final class Collected: @unchecked Sendable {
        // Guarded by `lock`; written once per pipe from two reader threads.
        private let lock = NSLock()
        private var out = Data()
        private var err = Data()

        private var stdinFailure: String?

        /// Keeps a failure to write the child's input, to show beside its stderr. A broken pipe is
        /// none: the child exited or closed its input before reading it all, as a command that
        /// refuses before asking for a password does.
        func noteStdinFailure(_ error: Error) {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            if (error as NSError).code == Int(EPIPE) || underlying?.code == Int(EPIPE) { return }
            lock.withLock { stdinFailure = "\n[stdin not fully written: \(error)]" }
        }

        var stdinNote: String { lock.withLock { stdinFailure ?? "" } }

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
