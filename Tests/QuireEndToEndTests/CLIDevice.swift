import Foundation
import QuireTestSupport

/// A `quire` device on this machine: the built binary with its own `--data-dir`.
struct CLIDevice {
    let directory: URL

    init(_ root: TemporaryDirectory, _ name: String) {
        directory = root.path(name)
    }

    /// Runs `quire --data-dir DIR args…` and returns what it printed and its exit code.
    @discardableResult
    func run(_ arguments: String..., stdin: String? = nil, environment: [String: String] = [:]) async throws
        -> ProcessResult
    {
        try await ProcessRunner.run(
            try BuiltProducts.executable("quire"), ["--data-dir", directory.path] + arguments,
            stdin: stdin, environment: environment)
    }

    /// Runs a command that must succeed, and returns its stdout (trimmed of the last newline).
    @discardableResult
    func ok(_ arguments: String..., stdin: String? = nil) async throws -> String {
        try await ok(arguments, stdin: stdin)
    }

    /// ``ok(_:stdin:)`` with the arguments as an array.
    @discardableResult
    func ok(_ arguments: [String], stdin: String? = nil) async throws -> String {
        let result = try await ProcessRunner.run(
            try BuiltProducts.executable("quire"), ["--data-dir", directory.path] + arguments, stdin: stdin)
        guard result.exitCode == 0 else {
            throw CLIFailure(command: arguments.joined(separator: " "), result: result)
        }
        return result.output
    }

    /// Imports one note whose title has a line break ("first\nsecond", from a file's name: the
    /// one way to make such a title here, `new --title` refusing it) into the device.
    func importNoteTitledWithALineBreak(_ root: TemporaryDirectory) async throws {
        let folder = root.path("in-\(directory.lastPathComponent)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("the body".utf8).write(to: folder.appendingPathComponent("first\nsecond.md"))
        try await ok("import", folder.path)
    }

    /// `quire ls --json`, decoded.
    func notes() async throws -> [CLINote] {
        try JSONDecoder().decode([CLINote].self, from: Data(try await ok("ls", "--json").utf8))
    }
}

struct CLINote: Decodable, Equatable {
    var id: String
    var title: String
    var body: String
    var state: String
    var conflictOf: String?
}

struct CLIFailure: Error, CustomStringConvertible {
    var command: String
    var result: ProcessResult
    var description: String {
        "quire \(command) exited \(result.exitCode): \(result.stderr)"
    }
}
