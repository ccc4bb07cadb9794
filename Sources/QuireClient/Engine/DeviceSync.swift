import Foundation

/// A device's whole sync as one run: each part in turn (the notes, then the trips), one report.
/// What `quire sync` runs, and what each run of the ``SyncController`` is.
///
/// A part that fails because the server cannot be reached or the device is signed out ends the
/// run (the next parts would fail the same way); any other failure lets the next parts run, and
/// the report keeps the first failure.
public struct DeviceSync: Sendable {
    public let parts: [any SyncPart]

    public init(parts: [any SyncPart]) {
        self.parts = parts
    }

    /// Runs every part once, in order. Never throws: the failure is in the report.
    @discardableResult
    public func syncOnce() async -> SyncReport {
        var report = SyncReport()
        for part in parts {
            report.absorb(await part.syncOnce())
            if let kind = report.failure?.kind, kind == .unreachable || kind == .signedOut { break }
            if Task.isCancelled { break }
        }
        return report
    }

    /// Cancels every part's run in flight.
    public func cancelCurrentRun() async {
        for part in parts { await part.cancelCurrentRun() }
    }
}
