import Dispatch
import Foundation
import QuireSQLite
import QuireTestSupport
import Testing

@testable import QuireServer

/// The SQLite store's methods run on a thread of their own (``WriterThreadExecutor``), so a
/// writer blocked in `fsync` or behind another connection's lock holds none of Swift's
/// cooperative threads. Runs in the timed pass, one test at a time: it blocks threads on purpose
/// and times a task against that.
struct WriterThreadExecutorTests {
    /// An actor on its own executor whose method reports the thread it ran on.
    private actor Probe {
        nonisolated let executor: WriterThreadExecutor
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        init(idleTimeout: TimeInterval = 2) {
            executor = WriterThreadExecutor(name: "quire-test", idleTimeout: idleTimeout)
        }

        func threadName() -> String { WriterThreadExecutor.currentThreadName }
    }

    @Test func anActorsJobsRunOnTheExecutorsOwnThread() async {
        let probe = Probe()
        #expect(await probe.threadName() == "quire-test")
        #expect(probe.executor.threads.started == 1)
    }

    @Test func theThreadEndsWhenIdleAndTheNextJobStartsAnother() async throws {
        let probe = Probe(idleTimeout: 0.05)
        _ = await probe.threadName()
        let deadline = Date(timeIntervalSinceNow: 10)
        while probe.executor.threads.running, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!probe.executor.threads.running, "the thread outlived its idle timeout")
        #expect(await probe.threadName() == "quire-test")
        #expect(probe.executor.threads.started == 2)
    }

    /// One store more than there are cooperative threads, each writer waiting for a lock another
    /// connection holds: on the cooperative pool (an actor's default executor, or a Dispatch
    /// queue, whose threads come from the same pool on Linux) they took every thread, and no
    /// other task ran until the lock was let go.
    @Test func blockedWritersLeaveTheCooperativeThreadsFree() async throws {
        let count = ProcessInfo.processInfo.activeProcessorCount + 1
        let directory = try TemporaryDirectory(prefix: "quire-writer-thread")
        var stores: [SQLiteServerStorage] = []
        var holders: [SQLiteConnection] = []
        for index in 0..<count {
            let path = directory.path("server-\(index).sqlite").path
            stores.append(try SQLiteServerStorage(path: path))
            let holder = try SQLiteConnection(path: path)
            try holder.execute("BEGIN IMMEDIATE")
            holders.append(holder)
        }
        let writes = stores.enumerated().map { index, store in
            Task {
                try await store.createAccount(
                    username: "user\(index)", publicID: "public\(index)",
                    credentials: AccountCredentials(
                        authKeyHash: Data(repeating: 1, count: 32), authSalt: Data(repeating: 2, count: 16),
                        authIterations: 1, kdfSalt: Data(repeating: 3, count: 16), kdfIterations: 1,
                        wrappedNotesKey: Data(repeating: 4, count: 60)),
                    recovery: nil, now: Date())
            }
        }
        let answered = Self.aTaskRuns(once: stores.map(\.executor))
        for holder in holders { try holder.execute("ROLLBACK") }
        #expect(answered == .success, "no cooperative thread was free while the writers waited")
        for write in writes { _ = try await write.value }
        for store in stores { await store.close() }
    }

    /// Whether a new task runs within 5 s, once every store's writes have reached its executor's
    /// thread (where they wait for the lock; on the pool they never reach it, and the task is
    /// then the one that cannot run). Blocks the caller's thread throughout, as a blocked writer
    /// would.
    private static func aTaskRuns(once executors: [WriterThreadExecutor]) -> DispatchTimeoutResult {
        let deadline = Date(timeIntervalSinceNow: 5)
        while !executors.allSatisfy(\.threads.running), Date() < deadline { sched_yield() }
        let ran = DispatchSemaphore(value: 0)
        Task.detached { ran.signal() }
        return ran.wait(timeout: .now() + 5)
    }
}
