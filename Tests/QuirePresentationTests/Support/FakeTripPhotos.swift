import Foundation
import QuireTrips

/// A `TripPhotosRepository` over an item's photos in memory, with thumbnails in a fake cache;
/// records what was added and removed and can fail them.
///
/// `@unchecked Sendable`: every stored property is read and written only while holding `lock`.
final class FakeTripPhotos: TripPhotosRepository, @unchecked Sendable {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "the disk is full" }
    }

    private let lock = NSLock()
    private var list: [TripItemPhoto]
    private var failing = false
    private var failingThumbnails = false
    private var added: [(URL, Bool)] = []
    private var removed: [String] = []
    private var thumbnailReads: [String] = []

    init(_ photos: [TripItemPhoto]) {
        list = photos
    }

    static func cached(_ id: String) -> URL { URL(fileURLWithPath: "/cache/\(id)") }

    var adds: [(source: URL, keepLocation: Bool)] { lock.withLock { added.map { ($0.0, $0.1) } } }
    var removes: [String] { lock.withLock { removed } }
    var thumbnailsRead: [String] { lock.withLock { thumbnailReads } }

    func fail(_ value: Bool = true) { lock.withLock { failing = value } }
    func failThumbnails() { lock.withLock { failingThumbnails = true } }

    func photos(of item: ItemID) async throws -> [TripItemPhoto] {
        try lock.withLock {
            if failing { throw Refused() }
            return list
        }
    }

    func thumbnail(of photo: TripItemPhoto) async throws -> URL? {
        try lock.withLock {
            thumbnailReads.append(photo.id)
            if failingThumbnails { throw Refused() }
            return photo.hasThumbnail ? Self.cached(photo.id) : nil
        }
    }

    /// A photo added is queued.
    func add(_ source: URL, to item: ItemID, keepLocation: Bool) async throws {
        try lock.withLock {
            if failing { throw Refused() }
            added.append((source, keepLocation))
            list.append(TripItemPhoto(id: "new\(added.count)", stage: .queued))
        }
    }

    func remove(_ photo: String) async throws {
        try lock.withLock {
            if failing { throw Refused() }
            removed.append(photo)
            list = list.map { $0.id == photo ? TripItemPhoto(id: photo, stage: .removing) : $0 }
        }
    }
}
