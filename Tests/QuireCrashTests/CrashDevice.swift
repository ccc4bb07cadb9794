import Foundation
import QuireTestSupport

/// A `quire` device (the built binary with its own `--data-dir`) that tests can `kill -9`.
struct CrashDevice: Sendable {
    let directory: URL

    init(_ root: TemporaryDirectory, _ name: String) {
        directory = root.path(name)
    }

    /// How one run of `quire` ended.
    struct Outcome: Sendable {
        /// SIGKILLed by the test while it ran: its work may or may not have committed.
        var killed: Bool
        var result: ProcessResult
        /// Wall time from launch to exit (or kill), in seconds.
        var elapsed: TimeInterval
        /// Exited 0 by itself: its work committed.
        var succeeded: Bool { !killed && result.exitCode == 0 }
    }

    /// Runs `quire --data-dir DIR arguments…` and SIGKILLs it `killAfter` seconds after it started
    /// (nil: let it finish). A run still going at the deadline counts as killed even if it was
    /// about to exit, which only ever makes the checks looser, never wrong.
    func run(_ arguments: [String], killAfter: TimeInterval?, stdin: String? = nil) async throws -> Outcome {
        let start = Date()
        let result = try await ProcessRunner.run(
            try BuiltProducts.executable("quire"), ["--data-dir", directory.path] + arguments,
            stdin: stdin, timeout: killAfter ?? 60)
        let killed = killAfter != nil && result.stderr.contains("[killed after ")
        return Outcome(killed: killed, result: result, elapsed: Date().timeIntervalSince(start))
    }

    /// Runs a command that must succeed, and returns its stdout without the last newline.
    @discardableResult
    func ok(_ arguments: String...) async throws -> String {
        let outcome = try await run(arguments, killAfter: nil)
        guard outcome.succeeded else {
            throw CrashDeviceFailure(command: arguments.joined(separator: " "), result: outcome.result)
        }
        return outcome.result.output
    }

    /// Runs commands that must all succeed, all at once, and returns their stdouts in order.
    @discardableResult
    func okAll(_ commands: [[String]]) async throws -> [String] {
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, command) in commands.enumerated() {
                group.addTask {
                    let outcome = try await run(command, killAfter: nil)
                    guard outcome.succeeded else {
                        throw CrashDeviceFailure(command: command.joined(separator: " "), result: outcome.result)
                    }
                    return (index, outcome.result.output)
                }
            }
            var outputs = Array(repeating: "", count: commands.count)
            for try await (index, output) in group { outputs[index] = output }
            return outputs
        }
    }

    /// `quire ls --json`, decoded.
    func notes() async throws -> [ListedNote] {
        try JSONDecoder().decode([ListedNote].self, from: Data(try await ok("ls", "--json").utf8))
    }

    /// `quire status --json`'s pending count.
    func pendingCount() async throws -> Int {
        try JSONDecoder().decode(Status.self, from: Data(try await ok("status", "--json").utf8)).pendingCount
    }

    private struct Status: Decodable {
        var pendingCount: Int
    }
}

/// One note as `quire ls --json` prints it.
struct ListedNote: Decodable, Equatable, Sendable {
    var id: String
    var title: String
    var body: String
    var state: String
    var pendingChanges: Int
    var conflictOf: String?
}

struct CrashDeviceFailure: Error, CustomStringConvertible {
    var command: String
    var result: ProcessResult
    var description: String { "quire \(command) exited \(result.exitCode): \(result.stderr)" }
}
