import Foundation

/// One photo of a trip item, for the item's photo strip: where it stands on this device.
public struct TripItemPhoto: Hashable, Sendable, Identifiable {
    /// Where a photo stands, from this device's point of view.
    public enum Stage: String, Hashable, Sendable {
        /// Added here; its upload has not started.
        case queued
        /// Added here; part of it is on the server.
        case uploading
        /// Added here; uploaded, its attachment waits to be sent.
        case attaching
        /// In the trip: every member's device sees it.
        case shared
        /// Added here; the server refused it (``TripItemPhoto/error`` says why).
        case failed
        /// Removed here; the removal waits to be sent.
        case removing
    }

    public var id: String
    public var stage: Stage
    /// Bytes to upload and how many the server has confirmed; both 0 for a photo not added here.
    public var uploadBytes: Int64
    public var uploadedBytes: Int64
    /// The photo has a thumbnail on the server.
    public var hasThumbnail: Bool
    public var error: String?

    public init(
        id: String, stage: Stage, uploadBytes: Int64 = 0, uploadedBytes: Int64 = 0, hasThumbnail: Bool = false,
        error: String? = nil
    ) {
        self.id = id
        self.stage = stage
        self.uploadBytes = uploadBytes
        self.uploadedBytes = uploadedBytes
        self.hasThumbnail = hasThumbnail
        self.error = error
    }
}
