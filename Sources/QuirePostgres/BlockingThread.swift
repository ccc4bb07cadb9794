import Foundation

/// Runs blocking `work` (a libpq call waits for the server, maybe behind a row lock) on a thread
/// of its own and resumes with its result.
///
/// Neither a Swift concurrency thread nor a Dispatch worker: on Linux both pools are small, and
/// callers blocking them all (tests start dozens of stores at once) left the work that would
/// unblock them queued behind them for minutes. `work` is released before the caller resumes,
/// so a closure made with `withoutActuallyEscaping` may be captured in it.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    let job = BlockingJob(work)
    let result: Result<T, any Error> = await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: job.run()) }
        thread.stackSize = 1 << 20
        thread.start()
    }
    return try result.get()
}

/// The work of one ``onOwnThread(_:)`` call, dropped once it ran: the thread object keeps its
/// block (and so this job) a little longer than the caller waits.
private final class BlockingJob<T: Sendable>: @unchecked Sendable {
    // Written by the creating thread before the thread starts, then only by that one thread.
    private var work: (@Sendable () throws -> T)?

    init(_ work: @escaping @Sendable () throws -> T) {
        self.work = work
    }

    func run() -> Result<T, any Error> {
        guard let work else { return .failure(PostgresError.decoding("a blocking job ran twice")) }
        self.work = nil
        return Result { try work() }
    }
}
