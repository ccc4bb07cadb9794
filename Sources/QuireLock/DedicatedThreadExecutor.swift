import Foundation

/// A serial executor that runs its jobs in order on a thread of its own: for an actor whose work
/// blocks (a SQLite COMMIT waiting for fsync), so the blocking never holds one of the cooperative
/// pool's few threads. On two cores a blocked pool thread is half the process's capacity for
/// parsing, sealing and answering requests.
///
/// The thread ends after ``stop()``, once the jobs enqueued before it have run; the owning actor
/// calls it from its `deinit`.
///
/// `@unchecked Sendable`: `queue` and `stopping` are read and written only while holding
/// `condition`'s lock.
public final class DedicatedThreadExecutor: SerialExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [UnownedJob] = []
    private var stopping = false

    /// Starts the thread, named `name` (as `top -H` and debuggers show it).
    public init(name: String) {
        let thread = Thread { [self] in runJobs() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        queue.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once the queue is empty.
    public func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Runs every queued job in order, taking them a batch at a time, until stopped and empty.
    private func runJobs() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            let batch = queue
            queue.removeAll(keepingCapacity: true)
            condition.unlock()
            if batch.isEmpty { return }
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
        }
    }
}
