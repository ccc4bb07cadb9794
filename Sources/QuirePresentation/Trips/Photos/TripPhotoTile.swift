import Foundation
import QuireTrips

/// One photo in an item's photo strip: its thumbnail when the device has it, or where it stands.
public struct TripPhotoTile: Identifiable, Equatable, Sendable {
    public let id: String
    /// The thumbnail file from the device's photo cache.
    public let thumbnail: URL?
    /// What to show instead of, or over, the thumbnail ("Uploading 40%"); nil when the thumbnail
    /// says it all.
    public let status: String?
    /// The upload was refused: shown as a problem, to remove or keep.
    public let isFailed: Bool
    /// Every photo but one being removed can be removed.
    public let canRemove: Bool

    public init(id: String, thumbnail: URL?, status: String?, isFailed: Bool, canRemove: Bool) {
        self.id = id
        self.thumbnail = thumbnail
        self.status = status
        self.isFailed = isFailed
        self.canRemove = canRemove
    }
}
