import Foundation

/// What a photo uploads as: a copy of the photo (its location removed unless the person kept it)
/// and a small JPEG thumbnail, both files that ``PhotoProcessor/prepare(_:keepLocation:into:)``
/// wrote. The same fields as QuireClient's `PreparedPhoto`, which this module cannot name.
public struct PreparedImage: Sendable, Hashable {
    /// The file to encrypt and upload: a copy, so the source is never changed.
    public var photo: URL
    /// A JPEG of at most ``PhotoProcessor/thumbnailLongSide`` pixels on its long side, upright,
    /// with no metadata at all.
    public var thumbnail: URL
    /// The photo's media type: "image/jpeg", "image/png", "image/heic", "image/avif", "image/webp".
    public var mediaType: String
    /// The photo's size as it is shown: upright, after its EXIF orientation (a portrait taken with
    /// the camera on its side is stored 4000 × 3000 and is 3000 × 4000 here).
    public var width: Int
    public var height: Int

    public init(photo: URL, thumbnail: URL, mediaType: String, width: Int, height: Int) {
        self.photo = photo
        self.thumbnail = thumbnail
        self.mediaType = mediaType
        self.width = width
        self.height = height
    }
}
