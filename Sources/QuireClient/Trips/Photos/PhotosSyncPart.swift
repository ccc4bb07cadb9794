import Foundation

/// The photo queue as a ``SyncPart``: `quire sync`, `quire watch` and the app drain it with the
/// notes and the trips, after the trips (a trip made on this device must be on the server
/// before its photos can be uploaded to it).
///
/// A run uploads under the device's run lock (``SyncRunGate``), one run at a time like every
/// engine; when it queued attach ops it runs the trips' engine once more, after letting the lock
/// go, so companions learn of the photos in the same sync. Cancelling a run stops the upload at
/// its next piece; the confirmed offset is saved, and the next run resumes there. Each run then
/// downloads the thumbnails of companions' new photos (``prefetchThumbnails()``).
public struct PhotosSyncPart: SyncPart {
    let uploader: PhotoUploader
    let trips: TripsSyncEngine
    let database: TripsDatabase
    /// Fetches thumbnails into the device's cache; nil to fetch none.
    let downloader: PhotoDownloader?
    private let gate: SyncRunGate

    init(
        uploader: PhotoUploader, trips: TripsSyncEngine, database: TripsDatabase, downloader: PhotoDownloader?,
        runLock: SyncRunLock
    ) {
        self.uploader = uploader
        self.trips = trips
        self.database = database
        self.downloader = downloader
        self.gate = SyncRunGate(lock: runLock)
    }

    /// Uploads what waits (``PhotoUploader/run()``), then sends the attach ops it queued, then
    /// prefetches thumbnails. `pushed` counts the photos attached, `received` the thumbnails
    /// fetched; a failure of the attach's send is the report's too.
    public func syncOnce() async -> SyncReport {
        let uploader = uploader
        var report = await gate.run { await uploader.run() }
        if report.pushed > 0, !Task.isCancelled {
            let attach = await trips.syncOnce()
            report.failure = report.failure ?? attach.failure
        }
        if report.failure == nil, !Task.isCancelled {
            report.received += await prefetchThumbnails()
        }
        return report
    }

    public func cancelCurrentRun() async { await gate.cancel() }

    /// Finishes at once: the trips' own count already includes the photos waiting to upload
    /// (one trigger for both; ``TripsSyncPart/pendingCount()``).
    public func pendingCount() -> AsyncStream<Int> {
        AsyncStream { $0.finish() }
    }

    /// Nothing of its own: the trips part notices other processes' commits to the same file.
    public func noticeChangesFromOtherProcesses() async throws {}

    /// Photos have no feed: companions' photos arrive as fields in the trips' feed.
    public func remoteChangeArrived(wait: Int) async throws -> Bool {
        throw SyncPartUnavailable()
    }
}
