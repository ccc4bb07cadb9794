import Foundation
import QuireSpawn

/// A program left running in the background (a `quire watch`), that a test can `kill -9` or
/// interrupt; what it prints (stdout and stderr) goes to one file, for diagnosing a failure.
public final class BackgroundProcess: @unchecked Sendable {
    // `process` is started once in `start` and only signalled and waited on after, from the one
    // test that owns this object.
    private let process: ChildProcess
    public let outputFile: URL

    private init(process: ChildProcess, outputFile: URL) {
        self.process = process
        self.outputFile = outputFile
    }

    /// Starts `executable` with `arguments` (and this process's environment changed by
    /// `environment`), its output written to `outputFile` (created or truncated). Throws when the
    /// program cannot be started.
    public static func start(
        _ executable: URL, _ arguments: [String], outputFile: URL, environment: [String: String] = [:]
    ) throws -> BackgroundProcess {
        guard FileManager.default.createFile(atPath: outputFile.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: outputFile.path])
        }
        let output = try FileHandle(forWritingTo: outputFile)
        defer { try? output.close() }  // the child holds its own copies
        let process = try ChildProcess(
            [executable.path] + arguments, environment: environment, stdin: .null,
            stdout: .descriptor(output.fileDescriptor),
            stderr: .descriptor(output.fileDescriptor))
        return BackgroundProcess(process: process, outputFile: outputFile)
    }

    public var isRunning: Bool { process.isRunning }
    public var pid: Int32 { process.pid }
    /// The exit status once it has exited (128 + the signal that killed it), else nil.
    public var exitStatus: Int32? { process.exitStatus }

    /// What it printed so far.
    public var output: String {
        (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
    }

    /// `kill -9`: no chance to finish anything. Waits for the exit off the concurrency pool.
    public func kill9() async {
        await signal(SIGKILL)
    }

    /// SIGINT, as Ctrl-C; waits for the exit off the concurrency pool.
    public func interrupt() async {
        await signal(SIGINT)
    }

    /// Sends the signal at once and waits for the exit off the pool (``ServerProcess/kill9()``
    /// says why the signal is not sent from the waiting thread).
    private func signal(_ number: Int32) async {
        process.signal(number)
        _ = try? await ProcessRunner.offPool { self.process.wait() }
    }
}
