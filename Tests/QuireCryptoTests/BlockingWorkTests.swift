import Dispatch
import Synchronization
import Testing

@testable import QuireCrypto

/// Where slow work (PBKDF2, a file lock another process holds, a blob read) runs.
///
/// On Linux, Swift concurrency's threads come from the same pool as Dispatch's global queues,
/// and that pool grows by about a thread a second once every thread in it is blocked. Work
/// queued there behind blocked threads waited a minute (ProcessRunnerTests), and while it
/// blocked threads of its own, it held up every task of the process.
struct BlockingWorkTests {
    /// Synchronous on purpose: an awaiting test would itself wait for the blocked pool to resume.
    @Test func workStartsWhileDispatchIsBusy() {
        let blockers = 128
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<blockers {
            DispatchQueue.global(qos: .userInitiated).async { _ = release.wait(timeout: .now() + 30) }
        }
        defer { for _ in 0..<blockers { release.signal() } }

        let done = DispatchSemaphore(value: 0)
        BlockingWork.start { done.signal() }

        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    /// As many jobs as the pool is wide, each waiting until all of them have started, run at
    /// once (none is left queued while a thread could take it); three times as many behind them
    /// all run too.
    @Test func aFullWidthRunsAtOnceAndTheRestFollow() {
        let width = BlockingWork.width
        let arrived = Mutex(0)
        let allIn = DispatchSemaphore(value: 0)
        let metEveryone = Mutex(0)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<width {
            BlockingWork.start {
                if arrived.withLock({ count in
                    count += 1
                    return count == width
                }) {
                    for _ in 0..<width { allIn.signal() }
                }
                if allIn.wait(timeout: .now() + 10) == .success { metEveryone.withLock { $0 += 1 } }
                finished.signal()
            }
        }
        for _ in 0..<(3 * width) {
            BlockingWork.start { finished.signal() }
        }
        for _ in 0..<(4 * width) {
            #expect(finished.wait(timeout: .now() + 15) == .success)
        }
        #expect(metEveryone.withLock { $0 } == width)
    }
}
