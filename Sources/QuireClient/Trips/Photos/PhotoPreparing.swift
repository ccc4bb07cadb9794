import Foundation

/// Makes what a photo uploads as: the photo itself (location metadata removed unless asked to
/// keep it) and a small thumbnail, both as files in `directory`. Implemented with libvips on
/// Linux and ImageIO on Apple in QuireMedia; QuireClient never links an image library.
///
/// The photo queue calls it once when a photo is added (``PhotoQueue/add(_:to:keepLocation:)``),
/// before anything is sealed, in a fresh folder it removes afterwards. An implementation that
/// cannot do what is asked (remove location it cannot read) throws, with a message that says
/// what to do: the photo is then not queued.
public protocol PhotoPreparing: Sendable {
    func prepare(_ source: URL, keepLocation: Bool, into directory: URL) throws -> PreparedPhoto
}

/// What ``PhotoPreparing`` made of a photo.
public struct PreparedPhoto: Sendable, Hashable {
    /// The file to encrypt and upload (a copy; the source is never changed).
    public var photo: URL
    /// JPEG, at most 320 px on the long side; nil when the implementation makes none (then no
    /// thumbnail is uploaded and companions see the photo only once they download it).
    public var thumbnail: URL?
    /// "image/jpeg", "image/png", "image/heic", …
    public var mediaType: String
    /// Of the photo, in pixels (0 when unknown).
    public var width: Int, height: Int

    public init(photo: URL, thumbnail: URL?, mediaType: String, width: Int, height: Int) {
        self.photo = photo
        self.thumbnail = thumbnail
        self.mediaType = mediaType
        self.width = width
        self.height = height
    }
}
