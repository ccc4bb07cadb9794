import Dispatch
import Foundation
import QuireTestSupport
import Testing

/// The runner every CLI test uses, under the load a parallel test run puts on Dispatch.
///
/// On Linux, Swift concurrency's threads come from the same pool as Dispatch's global queues,
/// and that pool grows by about a thread a second once every thread is blocked. The runner once
/// waited for its program, fed its input and read its output there; with enough tests waiting at
/// once, a program waited for input nobody wrote until it was killed (exit 137 after 60 s, seen in
/// CI from RecoveryCLITests), and a loopback server's answer waited 40 s for a thread to run on
/// (TripLiveServerTests). Nothing in the test process may block Dispatch's threads.
struct ProcessRunnerTests {
    /// Synchronous on purpose: an awaiting test would itself wait for the blocked pool to resume.
    @Test func aProgramRunsWhileDispatchIsBusy() throws {
        let blockers = 128
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<blockers {
            DispatchQueue.global().async { _ = release.wait(timeout: .now() + 30) }
        }
        defer { for _ in 0..<blockers { release.signal() } }
        // More than a pipe holds, so the input is written while the output is read.
        let input = String(repeating: "Lisbon in May\n", count: 20_000)

        let result = try ProcessRunner.runBlocking(URL(fileURLWithPath: "/bin/cat"), [], stdin: input, timeout: 10)

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == input)
    }
}
