import Foundation

/// One run at a time for one engine, and serialized with the device's other engines (other
/// processes, and the other kind of data) by the ``SyncRunLock``: what the notes and trips
/// engines share.
///
/// A run asked for while one is going joins it and gets its report. Cancelling a caller does not
/// cancel the run (another caller may be waiting on it); ``cancel()`` does.
actor SyncRunGate {
    private let lock: SyncRunLock
    private var running: Task<SyncReport, Never>?

    init(lock: SyncRunLock) {
        self.lock = lock
    }

    /// Runs `body` under the lock, or joins the run already going. When the lock cannot be had,
    /// the report says so (a storage failure) and `body` does not run.
    func run(_ body: @escaping @Sendable () async -> SyncReport) async -> SyncReport {
        if let running { return await running.value }
        let lock = lock
        let task = Task {
            do {
                return try await lock.whileSyncing { await body() }
            } catch {
                var report = SyncReport()
                report.failure = SyncFailure(
                    kind: .storage, message: "Could not take this device's sync lock: \(error)")
                return report
            }
        }
        running = task
        let report = await task.value
        running = nil
        return report
    }

    /// Cancels the run in flight, if any.
    func cancel() {
        running?.cancel()
    }
}
