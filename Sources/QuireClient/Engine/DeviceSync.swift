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
        await syncEachPart().reduce(into: SyncReport()) { $0.absorb($1.report) }
    }

    /// Runs every part once, in order, and returns each part's own report (`quire sync` says what
    /// the notes and the trips did). A part the run did not reach is left out. Never throws.
    public func syncEachPart() async -> [(part: any SyncPart, report: SyncReport)] {
        var reports: [(part: any SyncPart, report: SyncReport)] = []
        var firstFailure: SyncFailure?
        for part in parts {
            let report = await part.syncOnce()
            reports.append((part, report))
            firstFailure = firstFailure ?? report.failure
            if let kind = firstFailure?.kind, kind == .unreachable || kind == .signedOut { break }
            if Task.isCancelled { break }
        }
        return reports
    }

    /// Cancels every part's run in flight.
    public func cancelCurrentRun() async {
        for part in parts { await part.cancelCurrentRun() }
    }
}
