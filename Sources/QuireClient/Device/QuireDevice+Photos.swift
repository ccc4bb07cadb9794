import Foundation

// MARK: - Photos: the queue, the upload part and downloads (issue 16)

extension QuireDevice {
    /// The sealed photos waiting to upload (`media` in the directory).
    public var mediaDirectory: URL { directory.appendingPathComponent("media", isDirectory: true) }

    /// Downloaded photos (`photo-cache` in the directory), bounded by ``PhotoCache/capacity``.
    public var photoCacheDirectory: URL { directory.appendingPathComponent("photo-cache", isDirectory: true) }

    /// Adds and removes this device's photos; `preparer` makes what a photo uploads as (QuireMedia
    /// in the apps; the CLI passes its own).
    public func photoQueue(preparer: any PhotoPreparing) -> PhotoQueue {
        PhotoQueue(trips: trips, mediaDirectory: mediaDirectory, preparer: preparer)
    }

    /// Downloads photos for the signed-in account into the cache; nil when not signed in.
    public func makePhotoDownloader(
        cacheCapacity: Int64 = PhotoCache.defaultCapacity, transport: HTTPTransport? = nil
    ) throws -> PhotoDownloader? {
        guard let session = try credentials.load() else { return nil }
        let transport = transport ?? LiveTransport.make(baseURL: session.serverURL, trust: session.trust)
        let tokens = SessionTokenProvider(store: credentials, accounts: AccountsAPIClient(transport: transport))
        return PhotoDownloader(
            tus: TusClient(http: AuthorizedTransport(transport: transport, tokens: tokens)),
            cache: PhotoCache(directory: photoCacheDirectory, capacity: cacheCapacity), trips: trips,
            mediaDirectory: mediaDirectory, pieceSize: photoPieceBytes)
    }

    /// The photo queue's sync part, over the same transport and lock as the rest.
    func makePhotosPart(tus: TusClient, trips engine: TripsSyncEngine, runLock: SyncRunLock) -> PhotosSyncPart {
        let cache = PhotoCache(directory: photoCacheDirectory)
        return PhotosSyncPart(
            uploader: PhotoUploader(
                database: trips, tus: tus, mediaDirectory: mediaDirectory, pieceSize: photoPieceBytes,
                thumbnails: cache),
            trips: engine, database: trips,
            downloader: PhotoDownloader(
                tus: tus, cache: cache, trips: trips, mediaDirectory: mediaDirectory, pieceSize: photoPieceBytes),
            runLock: runLock)
    }
}
