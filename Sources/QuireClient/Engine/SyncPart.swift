import Foundation

/// One kind of data a device syncs on its own feed (notes, trips): what the ``SyncController``
/// and ``DeviceSync`` run and watch, so both kinds share one controller, one set of triggers, one
/// backoff and one status.
public protocol SyncPart: Sendable {
    /// Pushes what waits here, then pulls. Never throws: the failure is in the report. A run
    /// asked for while one is going joins it.
    func syncOnce() async -> SyncReport
    /// Cancels the run in flight, if any; what was being sent stays queued, to be resent unchanged.
    func cancelCurrentRun() async
    /// Replays the number of local changes waiting to be sent, then each new value: the "after
    /// each edit" trigger.
    func pendingCount() -> AsyncStream<Int>
    /// Publishes the pending count again when another process of this device committed since
    /// the last call: its edits must be pushed too.
    func noticeChangesFromOtherProcesses() async throws
    /// Holds a request on the feed open for up to `wait` seconds: true when another device's
    /// change waits to be pulled.
    /// - Throws: ``SyncPartUnavailable`` when the server has no such feed (stop asking), or the
    ///   request's error.
    func remoteChangeArrived(wait: Int) async throws -> Bool
}
