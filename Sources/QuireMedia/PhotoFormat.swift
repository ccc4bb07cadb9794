/// The photo formats Quire takes: what phones and cameras write. Anything else an image library
/// could read (TIFF, GIF, SVG, PDF, ...) is refused: fewer decoders see what people pick, and a
/// companion's device must be able to show what it downloads.
enum PhotoFormat: String, Sendable, CaseIterable {
    case jpeg, png, heic, avif, webp

    /// The media type the upload is labelled with.
    var mediaType: String { "image/\(rawValue)" }

    /// The extension of the prepared copy's file name.
    var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// How the format is named in messages.
    var displayName: String { self == .webp ? "WebP" : rawValue.uppercased() }

    /// The formats named in every refusal.
    static let accepted = "a JPEG, PNG, HEIC or WebP photo"
}
