import Foundation

extension SyncRunRecords {
    /// One engine run as both engines record it: the status says "syncing" while `body` runs,
    /// then how the run ended (``SyncRunRecord/finish(_:stoppedOnPurpose:at:)``), after
    /// `finishing` added the engine's own counters. Never throws: a failure of `body` is the
    /// report's; a cancellation is a stop on purpose, not a failure to show. Runs on the caller's
    /// actor.
    func recordedRun(
        now: @Sendable () -> Date, isolation: isolated (any Actor)? = #isolation,
        _ body: (inout SyncReport) async throws -> Void,
        finishing: (inout SyncRunRecord) -> Void = { _ in }
    ) async -> SyncReport {
        var report = SyncReport()
        var record: SyncRunRecord
        do {
            record = try await runRecord()
        } catch {
            // Without its status the database is unusable; say so rather than sync blind.
            report.failure = SyncFailure.from(error)
            return report
        }
        record.isSyncing = true
        await saveQuietly(record)
        var stoppedOnPurpose = false
        do {
            try await body(&report)
        } catch  where Task.isCancelled {
            // Stopped on purpose: the next run picks up where this stopped.
            report.failure = SyncFailure(kind: .transient, message: "Sync was stopped.")
            stoppedOnPurpose = true
        } catch {
            report.failure = SyncFailure.from(error)
        }
        record.finish(report, stoppedOnPurpose: stoppedOnPurpose, at: now())
        finishing(&record)
        await saveQuietly(record)
        return report
    }

    /// The status is informational: failing to write it must not fail the sync itself (the next
    /// run writes it again; the data is untouched by this failure).
    private func saveQuietly(_ record: SyncRunRecord) async {
        do {
            try await recordRun(record)
        } catch {
            // See above.
        }
    }
}
