import Foundation
import QuireDomain
import QuireWire

/// The one background job (seed 000 card 6): push pending changes, oldest first, then pull every
/// page of the feed. Split by concern: `+Push`, `+Pull`, `+Conflicts`.
///
/// One run at a time: a run started while another is going joins it, and runs of other engines
/// on the same database (another process of the device) wait for the ``SyncRunLock``. Each change
/// is sent with its change id, the base version frozen when it was first handed out and the
/// sealed bytes stored before its first send, so a resend after a lost reply is identical and the
/// server answers it with its first answer. On a 409 the engine asks the ``ConflictPolicy`` and
/// writes the outcome in one transaction. A change the server refuses stays with its reason; a
/// change whose sends keep failing waits its turn (``ChangeRetry``) while the others go on. Each
/// page of the feed is applied with its cursor in one transaction, so an interrupted pull resumes
/// where it stopped.
public actor NotesSyncEngine {
    public typealias ProgressHandler = @Sendable (SyncProgress) -> Void

    let records: SyncRecords
    let api: NotesAPI
    let codec: PayloadCodec
    let policy: ConflictPolicy
    let account: AccountID
    let now: @Sendable () -> Date
    let pageLimit: Int
    /// How many pending changes (of different notes) travel in one request.
    let batchLimit: Int
    /// The largest request body the server takes (a batch is cut to fit, a larger note refused).
    let bodyLimit: Int
    /// Whether a pull fetches and opens the next page while the current one is being stored.
    let readAhead: Bool
    private let gate: SyncRunGate
    /// Save-to-acknowledgement latencies of this run, added to the metrics at its end.
    var acknowledgementLatencies: [TimeInterval] = []
    var progressHandler: ProgressHandler?
    /// The last failure of a change that was set aside this run; the run reports it at its end.
    var deferredFailure: NotesAPIError?

    /// - Parameters:
    ///   - runLock: what serializes this engine's runs with other engines on the same database;
    ///     ``FileSyncRunLock`` for a device directory two processes may open.
    ///   - readAhead: a pull fetches, decodes and opens the next page (its payloads across the
    ///     cores) while the database stores the current one. On by default since the store became
    ///     cheaper (client migrations 14 and 15): it was faster in each of 7 runs of 10,000 notes on
    ///     the shared 2-core machine at load average 8 to 12 (2026-12-06, docs/benchmarks.md),
    ///     though slower there before those migrations (11.0 s against 9.7 s).
    public init(
        records: SyncRecords, api: NotesAPI, codec: PayloadCodec, account: AccountID,
        policy: ConflictPolicy = ConflictPolicy(), pageLimit: Int = WireRoutes.defaultPageLimit,
        batchLimit: Int = WireRoutes.maxBatchSize, bodyLimit: Int = WireRoutes.maxBodyBytes,
        readAhead: Bool = true, runLock: SyncRunLock = NoSyncRunLock(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.readAhead = readAhead
        self.batchLimit = min(max(batchLimit, 1), WireRoutes.maxBatchSize)
        self.bodyLimit = bodyLimit
        self.records = records
        self.api = api
        self.codec = codec
        self.account = account
        self.policy = policy
        self.pageLimit = pageLimit
        self.gate = SyncRunGate(lock: runLock)
        self.now = now
    }

    /// Called after each page of a pull with the notes received so far.
    public func onProgress(_ handler: ProgressHandler?) {
        progressHandler = handler
    }

    /// Pushes every pending change, then pulls every page; records the outcome in the status row.
    ///
    /// Never throws: a failure is in the report and in the status, and the notes stay. If a run is
    /// already going, this waits for it and returns its report; if another engine on the database
    /// is running, this waits for it to end first. Cancelling the caller does not cancel the run
    /// (another caller may be waiting on it); the next run picks up where it stopped.
    @discardableResult
    public func syncOnce() async -> SyncReport {
        await gate.run { await self.run() }
    }

    /// Cancels the run in flight, if any (sign-out, or the controller stopping). The change being
    /// sent stays queued and is resent unchanged next time; the status is not marked failed.
    public func cancelCurrentRun() async {
        await gate.cancel()
    }

    // MARK: - One run

    private func run() async -> SyncReport {
        deferredFailure = nil
        return await records.recordedRun(now: now) { report in
            var pushed = try await pushAll(&report)
            if pushed != .caughtUp { try await pullAll(&report) }
            // Each round sent something, and the pull checked what it was given.
            while pushed == .positionsToCheck {
                pushed = try await pushAll(&report)
                if pushed != .caughtUp { try await pullAll(&report) }
            }
            // A server that had lost notes: the resync queued them again; send them now.
            if report.reuploaded > 0 {
                while try await pushAll(&report) == .positionsToCheck { try await pullAll(&report) }
            }
            // Changes set aside after failed sends: the others went on, but this run did not
            // sync everything, and the status must say so.
            if let deferredFailure { throw deferredFailure }
        } finishing: { record in
            for latency in acknowledgementLatencies { record.metrics.recordAcknowledgement(latency: latency) }
            acknowledgementLatencies = []
        }
    }
}
