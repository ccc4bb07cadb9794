import Foundation

/// The server's background work: tombstone purges, idempotency-record and mark expiry, trip
/// tombstones, expired uploads, history pruning and the cleanup of revoked and ended sessions.
extension NotesServer {
    /// Runs one pass of the background work, on one instance at a time, and reports what it
    /// did; nil when another instance (or another pass of this one) is running it.
    ///
    /// Everything goes in bounded batches of ``NotesServerConfiguration/backgroundBatchSize``
    /// rows of each kind (history in steps of 32 notes), each its own short transaction, so
    /// writes go on while it runs: tombstones changed before `cutoff` (with their trash,
    /// idempotency records from before it, marks from before it minus 60 days), trip tombstones
    /// (one transaction, not batched yet), unfinished uploads past their expiry (with their
    /// blobs, in batches), history by ``NotesServerConfiguration/history`` when
    /// `pruningHistory`, revoked sessions whose access token expired before `cutoff`, and
    /// sessions past their idle or absolute lifetime (``SessionLifetime``) at the server's now. On
    /// PostgreSQL a pass holds an advisory lock (``BackgroundWorkStorage/runAlone(_:)``); on
    /// SQLite the process is the one instance. A store without batches (a wrapper) purges in
    /// one call. Cancelling the caller stops the pass between batches; what finished stays done.
    @discardableResult
    public func runBackgroundWork(olderThan cutoff: Date, pruningHistory: Bool = true) async throws
        -> BackgroundWorkReport?
    {
        let mine = backgroundPass.withLock { running in
            defer { running = true }
            return !running
        }
        guard mine else { return nil }
        defer { backgroundPass.withLock { $0 = false } }
        guard let work = storage as? any BackgroundWorkStorage else {
            var report = BackgroundWorkReport()
            report.tombstones = try await purgeTombstones(olderThan: cutoff)
            if pruningHistory { report.historyVersions = try await pruneHistory() }
            return report
        }
        let limit = configuration.backgroundBatchSize
        return try await work.runAlone { [self] in
            var report = BackgroundWorkReport()
            var batch: PurgeBatch
            repeat {
                try Task.checkCancellation()
                batch = try await work.purgeTombstoneBatch(olderThan: cutoff, limit: limit)
                report.add(batch)
                await Task.yield()
            } while batch.mayHaveMore
            for trips in [trips].compactMap({ $0 }) {
                for batch in try await trips.purgeAllTripTombstones(olderThan: cutoff, limit: limit).batches {
                    report.addTrips(batch)
                }
            }
            report.uploads = try await removeExpiredUploads(limit: limit)
            if pruningHistory { report.historyVersions = try await pruneHistory() }
            var sessions: Int
            let expiry = configuration.sessionLifetime.expiry(at: now())
            repeat {
                try Task.checkCancellation()
                sessions = try await work.deleteEndedSessions(revokedBefore: cutoff, expiry: expiry, limit: limit)
                report.addSessions(sessions)
            } while sessions >= limit
            return report
        }
    }
}

/// What one pass of ``NotesServer/runBackgroundWork(olderThan:pruningHistory:)`` deleted.
public struct BackgroundWorkReport: Sendable, Equatable {
    public var tombstones = 0
    public var idempotencyRecords = 0
    /// Marks of note versions and of sequence numbers.
    public var marks = 0
    public var tripTombstones = 0
    public var historyVersions = 0
    /// Unfinished uploads that expired, removed with their blobs.
    public var uploads = 0
    public var sessions = 0
    /// The batches of tombstones, records, marks and sessions it ran.
    public var batches = 0
    /// The most rows of one kind that one batch deleted.
    public var largestBatch = 0

    public init() {}

    mutating func add(_ batch: PurgeBatch) {
        tombstones += batch.tombstones
        idempotencyRecords += batch.idempotencyRecords
        marks += batch.marks
        batches += 1
        largestBatch = max(largestBatch, batch.tombstones, batch.idempotencyRecords)
    }

    mutating func addTrips(_ batch: TripPurgeBatch) {
        tripTombstones += batch.purged
        batches += 1
        largestBatch = max(largestBatch, batch.purged, batch.opRequests)
    }

    mutating func addSessions(_ count: Int) {
        sessions += count
        batches += 1
        largestBatch = max(largestBatch, count)
    }
}
