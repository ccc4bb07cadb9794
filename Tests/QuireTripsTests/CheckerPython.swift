import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Python with the independent iCalendar parser (`icalendar` from PyPI) that
/// `scripts/setup.sh` installs in `.build/venv-ci`.
///
/// The child is started with `posix_spawn` and reaped with `waitpid` on a Dispatch thread, not
/// with Foundation's `Process`, whose exit detection on Linux can miss a child beside the
/// suite's many others (see QuireTestSupport's `ChildExit`); this target links no test support.
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
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result { try spawnAndWait(command, output: outputFile.path) })
            }
        }
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        return Result(status: status, output: output)
    }

    private struct SpawnFailed: Error, CustomStringConvertible {
        var code: Int32
        var description: String { "posix_spawn failed: \(String(cString: strerror(code)))" }
    }

    private static func spawnAndWait(_ argv: [String], output: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var cArguments = argv.map { strdup($0) }
        cArguments.append(nil)
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw SpawnFailed(code: spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
