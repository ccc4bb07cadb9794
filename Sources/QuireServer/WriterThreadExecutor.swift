import Foundation

/// A serial executor that runs an actor's jobs on a thread of its own, for an actor whose jobs
/// block: ``SQLiteServerStorage``, whose every commit waits in `fsync`.
///
/// On Swift's cooperative threads (one a core), a writer blocked in `fsync` left one thread of
/// two for every other request: the CPU sat idle while requests waited for a thread. Dispatch
/// queues are no way out on Linux: their threads come from the same capped pool, and a restored
/// server's first sync was seen to wait forever for one (docs/benchmarks.md, issue 13 part 6).
///
/// The thread starts when a job finds none, runs every queued job in the order they came, and
/// ends after ``idleTimeout`` with nothing to do, so a store nobody closes (or uses) holds no
/// thread; the next job starts another.
///
/// `@unchecked Sendable`: every stored property but the constants and `spare` is read and
/// written only while holding `condition`'s lock; `spare` only by the one running thread.
final class WriterThreadExecutor: SerialExecutor, @unchecked Sendable {
    /// How long the thread waits for a job before it ends.
    let idleTimeout: TimeInterval
    private let name: String
    private let condition = NSCondition()
    private var queued: [UnownedJob] = []
    /// The jobs the thread is running, kept to swap with `queued` so neither array reallocates.
    private var spare: [UnownedJob] = []
    private var hasThread = false
    /// Threads started, for tests.
    private var started = 0

    /// `name` names the thread, cut to 15 bytes.
    init(name: String, idleTimeout: TimeInterval = 2) {
        self.name = name
        self.idleTimeout = idleTimeout
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        queued.append(job)
        let startsThread = !hasThread
        if startsThread {
            hasThread = true
            started += 1
        } else {
            condition.signal()
        }
        condition.unlock()
        if startsThread {
            Thread.detachNewThread { [self] in work() }
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// How many threads this executor has started, and whether one is running now.
    var threads: (started: Int, running: Bool) {
        condition.lock()
        defer { condition.unlock() }
        return (started, hasThread)
    }

    /// The calling thread's name as the system knows it (what `top -H`, perf and gdb show).
    static var currentThreadName: String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return name.hasSuffix("\n") ? String(name.dropLast()) : name
    }

    private func work() {
        // Linux keeps at most 15 bytes of a thread's name (Foundation's `Thread.name` never
        // reaches the system here).
        try? Data(name.utf8.prefix(15)).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
        let executor = asUnownedSerialExecutor()
        condition.lock()
        while true {
            if queued.isEmpty {
                let deadline = Date(timeIntervalSinceNow: idleTimeout)
                while queued.isEmpty, condition.wait(until: deadline) {}
                if queued.isEmpty {
                    hasThread = false
                    condition.unlock()
                    return
                }
            }
            swap(&queued, &spare)
            condition.unlock()
            for job in spare { job.runSynchronously(on: executor) }
            spare.removeAll(keepingCapacity: true)
            condition.lock()
        }
    }
}
