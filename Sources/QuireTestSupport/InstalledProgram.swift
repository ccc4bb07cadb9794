import Foundation

/// A program the tests run that scripts/setup.sh installs (openssl, vips, exiftool), found on
/// `PATH` the way a shell would.
public enum InstalledProgram {
    /// The program called `name` on `PATH` (then `/usr/bin`).
    /// - Throws: when it is not installed, saying how to install it.
    public static func find(_ name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) + ["/usr/bin"] {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw ServerProcessError(message: "the \(name) command is not installed; run scripts/setup.sh")
    }

    /// Runs `name` with `arguments` and returns its standard output.
    /// - Throws: when it is missing or exits non-zero (with what it printed on stderr).
    @discardableResult
    public static func run(_ name: String, _ arguments: [String], timeout: TimeInterval = 120) async throws -> String {
        let result = try await ProcessRunner.run(try find(name), arguments, stdin: "", timeout: timeout)
        guard result.exitCode == 0 else {
            throw ServerProcessError(
                message: "\(name) \(arguments.joined(separator: " ")) exited \(result.exitCode): \(result.stderr)")
        }
        return result.stdout
    }
}
