import Foundation
import QuireSpawn
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The one way the project starts programs (the CLI's editor and pager, every test's `quire`,
/// `quire-server`, python and tmux, the benchmarks' curl and wrk): real children, real signals.
@Suite struct ChildProcessTests {
    @Test func reportsTheExitStatusAndWhatTheProgramPrinted() throws {
        let child = try ChildProcess(["/bin/sh", "-c", "echo out; echo err >&2; exit 3"], stdout: .pipe, stderr: .pipe)
        let out = try child.output?.readToEnd() ?? Data()
        let err = try child.errorOutput?.readToEnd() ?? Data()

        #expect(child.wait() == 3)
        #expect(String(decoding: out, as: UTF8.self) == "out\n")
        #expect(String(decoding: err, as: UTF8.self) == "err\n")
    }

    @Test func aProgramKilledByASignalExitsWith128PlusTheSignal() throws {
        let child = try ChildProcess(["/bin/sh", "-c", "kill -9 $$"])

        #expect(child.wait() == 128 + SIGKILL)
    }

    @Test func feedsStdinAndFindsProgramsOnThePath() throws {
        let child = try ChildProcess(["cat"], stdin: .pipe, stdout: .pipe)
        try child.input?.write(contentsOf: Data("oat milk\n".utf8))
        try child.input?.close()

        #expect(String(decoding: try child.output?.readToEnd() ?? Data(), as: UTF8.self) == "oat milk\n")
        #expect(child.wait() == 0)
    }

    @Test func seesTheEnvironmentWithTheChangesGiven() throws {
        let child = try ChildProcess(
            ["/bin/sh", "-c", "echo \"$QUIRE_SPAWN_TEST:$HOME\""], environment: ["QUIRE_SPAWN_TEST": "eggs"],
            stdout: .pipe)
        let printed = String(decoding: try child.output?.readToEnd() ?? Data(), as: UTF8.self)

        #expect(printed == "eggs:\(ProcessInfo.processInfo.environment["HOME"] ?? "")\n")
    }

    @Test func writesToAFileAndSendsStderrWhereStdoutGoes() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        let child = try ChildProcess(
            ["/bin/sh", "-c", "echo one; echo two >&2"], stdout: .file(file.path), stderr: .descriptor(STDOUT_FILENO))

        #expect(child.wait() == 0)
        #expect(try String(contentsOf: file, encoding: .utf8) == "one\ntwo\n")
    }

    /// A descriptor this process left open without close-on-exec (SQLite's, a socket) must not
    /// reach the child: a pipe's write end kept open there hides the end of a reader's output.
    @Test func noDescriptorOfThisProcessLeaksIntoTheChild() throws {
        let leaked = open("/dev/null", O_RDONLY)
        #expect(leaked > 2)
        defer { close(leaked) }
        let child = try ChildProcess(["/bin/sh", "-c", "[ -e /proc/$$/fd/\(leaked) ]"])

        #expect(child.wait() == 1)
    }

    @Test func signalsReachTheChildWithTheirDefaultHandling() throws {
        let previous = signal(SIGUSR1, SIG_IGN)
        defer { signal(SIGUSR1, previous) }
        let child = try ChildProcess(["/bin/sh", "-c", "kill -USR1 $$; exit 0"])

        #expect(child.wait() == 128 + SIGUSR1)
    }

    @Test func aRunningChildStopsOnSignalAndASignalAfterItsEndIsANoOp() throws {
        let child = try ChildProcess(["sleep", "30"])
        #expect(child.isRunning)
        #expect(child.wait(timeout: 0.05) == nil)

        child.signal(SIGTERM)

        #expect(child.wait(timeout: 10) == 128 + SIGTERM)
        child.signal(SIGKILL)
        #expect(child.exitStatus == 128 + SIGTERM)
    }

    @Test func threadsWaitingAtOnceAllLearnTheSameStatus() async throws {
        let child = try ChildProcess(["/bin/sh", "-c", "sleep 0.2; exit 7"])
        let statuses = await withTaskGroup(of: Int32.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        Thread.detachNewThread { continuation.resume(returning: child.wait()) }
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(statuses == [7, 7, 7, 7])
    }

    @Test func aProgramThatDoesNotExistIsAnErrorNamingIt() {
        #expect {
            _ = try ChildProcess(["/nonexistent/quire-editor"])
        } throws: { error in
            "\(error)".contains("could not start /nonexistent/quire-editor")
        }
    }

    /// Foundation's Process crashed about one run in five of this suite's size (a read past a
    /// buffer while listing /proc/self/fd); hundreds of children started from many threads at
    /// once, each with its pipes, must all start, end and report.
    @Test func manyChildrenStartedAtOnceFromManyThreadsAllReport() async throws {
        let results = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<200 {
                group.addTask {
                    try await withCheckedThrowingContinuation { continuation in
                        // Threads of their own: Dispatch's would hold up every other test
                        // (ProcessRunnerTests).
                        Thread.detachNewThread {
                            continuation.resume(
                                with: Result {
                                    let child = try ChildProcess(["/bin/echo", "\(index)"], stdout: .pipe)
                                    let out = try child.output?.readToEnd() ?? Data()
                                    return "\(child.wait()):\(String(decoding: out, as: UTF8.self))"
                                })
                        }
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(Set(results) == Set((0..<200).map { "0:\($0)\n" }))
    }
}
