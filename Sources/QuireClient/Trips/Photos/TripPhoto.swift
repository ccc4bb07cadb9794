import Foundation
import QuireTrips

/// One photo of an item as this device shows it: its own photos from the moment they are
/// queued, and every photo the item's log holds (companions' included).
public struct TripPhoto: Sendable, Hashable {
    /// Where a photo stands, from this device's point of view (the app's photo strip shows the
    /// same stages).
    public typealias State = TripItemPhoto.Stage

    /// The photo's id (a lowercase UUID): the item's field `photo.<id>`.
    public var id: String
    public var trip: TripID
    public var item: ItemID
    public var state: State
    /// What the photo field holds (nil for a photo of this device not attached yet).
    public var attachment: PhotoAttachment?
    /// Ciphertext bytes to upload (the photo and its thumbnail), and how many the server has
    /// confirmed; both 0 for a photo that did not start here.
    public var uploadBytes: Int64
    public var uploadedBytes: Int64
    public var mediaType: String?
    /// Bytes of the photo itself (plaintext), when known.
    public var size: Int64?
    /// Why it failed, or why the last try did not go through.
    public var error: String?

    public init(
        id: String, trip: TripID, item: ItemID, state: State, attachment: PhotoAttachment? = nil,
        uploadBytes: Int64 = 0, uploadedBytes: Int64 = 0, mediaType: String? = nil, size: Int64? = nil,
        error: String? = nil
    ) {
        self.id = id
        self.trip = trip
        self.item = item
        self.state = state
        self.attachment = attachment
        self.uploadBytes = uploadBytes
        self.uploadedBytes = uploadedBytes
        self.mediaType = mediaType
        self.size = size
        self.error = error
    }
}
