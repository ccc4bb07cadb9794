import Foundation

/// One photo of a trip item, for the item's photo strip: where it stands on this device.
public struct TripItemPhoto: Hashable, Sendable, Identifiable {
    /// Where a photo stands, from this device's point of view.
    public enum Stage: String, Hashable, Sendable, Codable {
        /// Added here; its upload has not started.
        case queued
        /// Added here; part of it is on the server (its uploaded bytes).
        case uploading
        /// Added here; the upload is complete and its attach op waits to be sent.
        case attaching
        /// In the trip's log: every member's device sees it.
        case shared
        /// Added here; the server refused the upload or the attach (the error says why). Kept
        /// until removed.
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
