import QuireClient

/// One photo as `quire trip photos ITEM --json` prints it. The field names are a scripting
/// contract: keep them stable.
struct PhotoJSON: Encodable {
    var id: String
    var trip: String
    var item: String
    /// queued, uploading, attaching, shared, failed, removing.
    var state: String
    var mediaType: String?
    /// Bytes of the photo (plaintext), when known.
    var size: Int64?
    var width: Int?
    var height: Int?
    var hasThumbnail: Bool
    /// Ciphertext bytes to upload and confirmed, for this device's photos not attached yet.
    var uploadBytes: Int64?
    var uploadedBytes: Int64?
    var error: String?

    init(_ photo: TripPhoto) {
        id = photo.id
        trip = photo.trip.description
        item = photo.item.description
        state = photo.state.rawValue
        mediaType = photo.mediaType
        size = photo.size
        width = photo.attachment.map(\.width)
        height = photo.attachment.map(\.height)
        hasThumbnail = photo.attachment?.thumbnail != nil
        uploadBytes = photo.uploadBytes > 0 ? photo.uploadBytes : nil
        uploadedBytes = photo.uploadBytes > 0 ? photo.uploadedBytes : nil
        error = photo.error
    }
}
