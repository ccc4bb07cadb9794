import Foundation

/// A fixed number of threads of Quire's own that run blocking jobs in the order they came.
///
/// Not Dispatch's global queues: on Linux, Swift concurrency's threads come from the same pool,
/// which grows by about a thread a second once every thread in it is blocked, so blocking work
/// there stalls every task of the process (BlockingWorkTests). A thread starts when a job finds
/// none idle, up to `width`; threads then stay, waiting for the next job.
///
/// `@unchecked Sendable`: every stored property but `width` is read and written only while
/// holding `condition`'s lock.
final class BlockingThreadPool: @unchecked Sendable {
    let width: Int
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var next = 0
    private var threads = 0
    private var idle = 0

    init(width: Int) {
        precondition(width > 0, "a pool needs a thread")
        self.width = width
    }

    /// Queues `job` and returns at once.
    func start(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        // Every queued job needs a thread that will look for it: an idle one (signalled), or a
        // new one while there is room. Busy threads look again when their job ends.
        let waiting = jobs.count - next
        let startsThread = waiting > idle && threads < width
        if startsThread { threads += 1 }
        condition.signal()
        condition.unlock()
        if startsThread { Thread.detachNewThread { self.work() } }
    }

    private func work() {
        condition.lock()
        while true {
            while next == jobs.count {
                idle += 1
                condition.wait()
                idle -= 1
            }
            let job = jobs[next]
            next += 1
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            }
            condition.unlock()
            job()
            condition.lock()
        }
    }
}
