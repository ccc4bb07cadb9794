import Foundation
import QuireTrips

/// An item's photos for the app's photo strip, as `quire trip photos`, `trip photo add` and `rm`
/// read and write them: queued on this device (the upload runs with the next sync), thumbnails
/// from the device's photo cache (downloaded into it when signed in).
public struct DeviceTripPhotosRepository: TripPhotosRepository {
    private let trips: TripsDatabase
    private let queue: PhotoQueue
    private let makeDownloader: @Sendable () throws -> PhotoDownloader?

    /// - Parameters:
    ///   - preparer: makes what a photo uploads as (the app: QuireMedia's `PhotoProcessor`).
    ///   - makeDownloader: the cache's downloader, made for each thumbnail (nil when signed out).
    public init(
        trips: TripsDatabase, queue: PhotoQueue, makeDownloader: @escaping @Sendable () throws -> PhotoDownloader?
    ) {
        self.trips = trips
        self.queue = queue
        self.makeDownloader = makeDownloader
    }

    /// Over `device`: its trips, its photo queue with `preparer`, its photo cache.
    public init(device: QuireDevice, preparer: any PhotoPreparing) {
        self.init(trips: device.trips, queue: device.photoQueue(preparer: preparer)) {
            try device.makePhotoDownloader()
        }
    }

    /// The item's photos; one of this device not attached yet has the thumbnail it queued.
    public func photos(of item: ItemID) async throws -> [TripItemPhoto] {
        var photos: [TripItemPhoto] = []
        for photo in try await trips.photos(of: item) {
            var shown = Self.photo(photo)
            if photo.attachment == nil, let local = try await trips.media(photo.id) {
                shown.hasThumbnail = local.thumbnailFile != nil
            }
            photos.append(shown)
        }
        return photos
    }

    /// The thumbnail in the cache, fetched (and checked) first when it is not there; nil when
    /// signed out or the photo has none.
    public func thumbnail(of photo: TripItemPhoto) async throws -> URL? {
        guard photo.hasThumbnail, let downloader = try makeDownloader() else { return nil }
        return try await downloader.fetch(try await trips.photo(photo.id), thumbnail: true)
    }

    public func add(_ source: URL, to item: ItemID, keepLocation: Bool) async throws {
        _ = try await queue.add(source, to: item, keepLocation: keepLocation)
    }

    public func remove(_ photo: String) async throws {
        try await queue.remove(photo)
    }

    static func photo(_ photo: TripPhoto) -> TripItemPhoto {
        TripItemPhoto(
            id: photo.id, stage: photo.state,
            uploadBytes: photo.uploadBytes, uploadedBytes: photo.uploadedBytes,
            hasThumbnail: photo.attachment?.thumbnail != nil, error: photo.error)
    }
}
