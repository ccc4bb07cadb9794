import Foundation
import QuireTrips
import QuireWire

/// The trips' background job (seed 002 §3, §7): push each trip's waiting field changes, then pull
/// the account's trips feed and each changed trip. Split by concern: `+Push`, `+Pull`.
///
/// It shares the notes engine's machinery rather than copying it: one run at a time and the
/// device's ``SyncRunLock`` (``SyncRunGate``), the API errors and what they mean
/// (``SendDisposition``, ``SyncFailure``), per-change backoff (``ChangeRetry``) and the run record.
///
/// Each request of ops is frozen in the database (opId, sealed values, bases) before its first
/// send, so a resend after a lost reply or a crash is the same request, and the server's answer
/// to a repeated opId is its first: no op applies twice. Per op: applied → its value is confirmed
/// at its revision and a queued change of the same field moves its base there; conflict → the
/// notes field merges three ways, anything else waits for the person, and a delete wins over an
/// edit (the edit is kept to restore); rejected → kept, with the reason. Each page of a trip's
/// changes is applied with its cursor in one transaction; an expired cursor (410), or a trip seen
/// for the first time, takes the snapshot, keeping the waiting changes.
public actor TripsSyncEngine {
    let database: TripsDatabase
    let api: TripsAPI
    let keys: TripKeyWrapping
    /// Follows the trips' key rotations (issue 15); nil: only keys wrapped with the notes key are
    /// taken, and no rotation an owner is due is made.
    let keySource: (any TripKeySource)?
    let account: AccountID
    let pageLimit: Int
    /// How many ops travel in one request.
    let opsLimit: Int
    /// The largest request body the server takes.
    let bodyLimit: Int
    let now: @Sendable () -> Date
    private let gate: SyncRunGate
    /// The last failure of a request set aside this run; the run reports it at its end.
    var deferredFailure: NotesAPIError?
    /// Trips whose request failed this run: they wait their turn (``ChangeRetry``), and the run
    /// does not send them again.
    var setAside: Set<TripID> = []
    /// Trips whose request was refused for a rotated key this run: caught up once, then resent.
    var caughtUpWithKeys: Set<TripID> = []

    /// - Parameters:
    ///   - keys: wraps new trips' keys for the server and unwraps the keys the feed lists.
    ///   - keySource: opens keys a rotation sealed for this account, and rotates what it must.
    ///   - account: the account the database is bound to; pages for another are refused.
    ///   - runLock: the device's lock, shared with the notes engine (``FileSyncRunLock``).
    public init(
        database: TripsDatabase, api: TripsAPI, keys: TripKeyWrapping, keySource: (any TripKeySource)? = nil,
        account: AccountID,
        pageLimit: Int = WireRoutes.defaultPageLimit, opsLimit: Int = WireRoutes.maxTripOps,
        bodyLimit: Int = WireRoutes.maxBodyBytes, runLock: SyncRunLock = NoSyncRunLock(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.database = database
        self.api = api
        self.keys = keys
        self.keySource = keySource
        self.account = account
        self.pageLimit = min(max(pageLimit, 1), WireRoutes.maxPageLimit)
        self.opsLimit = min(max(opsLimit, 1), WireRoutes.maxTripOps)
        self.bodyLimit = bodyLimit
        self.now = now
        self.gate = SyncRunGate(lock: runLock)
    }

    /// Pushes every trip's waiting changes, then pulls; records the outcome in the trips' status.
    ///
    /// Never throws: a failure is in the report and the status, and the trips stay. A run asked for
    /// while one is going joins it; another engine of the device holding the run lock is waited
    /// for. Cancelling the caller does not cancel the run; ``cancelCurrentRun()`` does, and a
    /// request being sent stays frozen, to be resent unchanged.
    @discardableResult
    public func syncOnce() async -> SyncReport {
        await gate.run { await self.run() }
    }

    /// Cancels the run in flight, if any; the status is not marked failed.
    public func cancelCurrentRun() async {
        await gate.cancel()
    }

    /// Holds the account's trips feed open for up to `wait` seconds: true when a trip changed
    /// after the stored cursor (the sync controller then runs a sync to pull it).
    /// - Throws: ``NotesAPIError``; `.refused` with status 404 from a server without trips.
    public func remoteChangeArrived(wait: Int) async throws -> Bool {
        let cursor = try await database.tripsFeedCursor()
        return try await !api.tripsFeed(since: cursor, limit: 1, wait: wait).trips.isEmpty
    }

    // MARK: - One run

    private func run() async -> SyncReport {
        deferredFailure = nil
        setAside = []
        caughtUpWithKeys = []
        return await database.recordedRun(now: now) { report in
            try await pushAll(&report)
            try await pullAll(&report)
            try await finishDueKeyWork(&report)
            // A restore another device made brings this device's edits back into the outbox.
            if try await !database.tripsToPush().isEmpty { try await pushAll(&report) }
            if let deferredFailure { throw deferredFailure }
        }
    }

    /// The answer of a server that keeps no trips (no trip routes): a 404 on a route that always
    /// exists on one that does.
    static func serverKeepsNoTrips(_ error: NotesAPIError) -> Bool {
        error.status == 404 && error.code == "not_found"
    }

    static let noTripsOnServer = "This server does not sync trips yet; the trips stay on this device."
}
