/// What `quire-photo prepare` prints on stdout, one JSON object: the photo it prepared, or why it
/// could not. `quire` reads it (QuireCLI's `ProcessedPhoto`); the two programs ship together,
/// so the shape is theirs alone, but it is kept small and stable all the same.
///
/// Photos are decoded in that separate process, never in `quire` itself: image decoders are the
/// code most exposed to files from anywhere (a photo from a chat, a download), and a crash or
/// an exploit there cannot reach the device's database or keys; and `quire`, which `watch` keeps
/// running for days, does not map libvips and its eighty libraries (14 MB of memory a process).
public struct PhotoHelperAnswer: Codable, Sendable, Hashable {
    /// The prepared copy to seal and upload.
    public var photo: String?
    /// The thumbnail (JPEG, at most 320 px on its long side).
    public var thumbnail: String?
    public var mediaType: String?
    /// Upright, in pixels.
    public var width: Int?
    public var height: Int?
    /// Set instead of the fields above when the photo was refused: a code
    /// (`not_an_image`, `unsupported_format`, `damaged`, `unreadable`, `cannot_write`,
    /// `location_remains`, `library_unavailable`) and the message to show, which says what to do.
    public var error: String?
    public var message: String?

    public init(photo: String, thumbnail: String, mediaType: String, width: Int, height: Int) {
        self.photo = photo
        self.thumbnail = thumbnail
        self.mediaType = mediaType
        self.width = width
        self.height = height
    }

    public init(error: String, message: String) {
        self.error = error
        self.message = message
    }
}
