import Foundation
import QuireSpawn

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Python with the independent iCalendar parser (`icalendar` from PyPI) that
/// `scripts/setup.sh` installs in `.build/venv-ci`.
///
/// The child is a ``ChildProcess`` (posix_spawn, reaped by itself), waited on on a Dispatch thread;
/// this target links no test support.
enum CheckerPython {
    struct Missing: Error, CustomStringConvertible {
        var path: String
        var description: String {
            "The iCalendar checker needs \(path) with icalendar installed: run `bash scripts/setup.sh` "
                + "(it creates .build/venv-ci and installs the pinned icalendar), then run the tests again."
        }
    }

    struct Result {
        var status: Int32
        var output: String
    }

    static var path: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/venv-ci/bin/python").path
    }

    /// Writes `files` (name and contents) to a fresh temporary directory, runs `script` with
    /// their paths as arguments, in order, and returns its exit status and what it printed
    /// (stdout and stderr together). Throws `Missing` when the venv is not there.
    static func run(script: String, files: [(name: String, contents: Data)]) async throws -> Result {
        let python = path
        guard FileManager.default.isExecutableFile(atPath: python) else { throw Missing(path: python) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quire-ics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scriptFile = directory.appendingPathComponent("check.py")
        let outputFile = directory.appendingPathComponent("output.txt")
        try Data(script.utf8).write(to: scriptFile)
        var argv = [python, scriptFile.path]
        for file in files {
            let url = directory.appendingPathComponent(file.name)
            try file.contents.write(to: url)
            argv.append(url.path)
        }
        let command = argv
        let status = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, Error>) in
            // A thread of its own, not Dispatch's global queue (slow to grow on Linux: ProcessRunnerTests).
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result { try spawnAndWait(command, output: outputFile.path) })
            }
        }
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        return Result(status: status, output: output)
    }

    private static func spawnAndWait(_ argv: [String], output: String) throws -> Int32 {
        try ChildProcess(argv, stdin: .null, stdout: .file(output), stderr: .descriptor(STDOUT_FILENO)).wait()
    }
}
