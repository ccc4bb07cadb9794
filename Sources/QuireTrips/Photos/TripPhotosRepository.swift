import Foundation

/// An item's photos, for the item's photo strip (issue 16, as `quire trip photos`, `trip photo
/// add` and `rm`): adding queues the photo on the device; the upload runs with the next sync.
public protocol TripPhotosRepository: Sendable {
    func photos(of item: ItemID) async throws -> [TripItemPhoto]

    /// The photo's thumbnail file in the device's photo cache, downloaded into it first when it is
    /// not there; nil when the photo has none.
    func thumbnail(of photo: TripItemPhoto) async throws -> URL?

    /// Queues the photo at `source` on `item`, its location removed unless `keepLocation`.
    func add(_ source: URL, to item: ItemID, keepLocation: Bool) async throws

    func remove(_ photo: String) async throws
}
