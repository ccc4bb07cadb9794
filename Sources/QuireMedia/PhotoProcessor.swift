import Foundation

/// Makes what a trip photo uploads as: a copy of the photo with its location removed (unless the
/// person keeps it) and a small upright JPEG thumbnail.
///
/// libvips on Linux, ImageIO on Apple; the same contract on both. The source file is only read.
/// Memory stays bounded whatever the photo's size: libvips reads it in one sequential pass and
/// shrinks a JPEG while decoding it, so an 8000 × 6000 photo never sits in memory whole (see
/// docs/trips.md for the measured peak). Safe to call from several threads at once.
public struct PhotoProcessor: Sendable {
    /// The thumbnail's long side at most, in pixels; a smaller photo is not enlarged.
    public static let thumbnailLongSide = 320

    public init() {}

    /// Writes the upload copy and the thumbnail of `source` into `directory` (created when missing),
    /// under new unique names, and describes them.
    ///
    /// Without `keepLocation`, EXIF's GPS block and XMP's GPS properties are removed from the copy
    /// and every other tag (orientation, camera, date, colour profile) is kept; the copy is then
    /// read back, and if any location tag is still there it is deleted and the call throws. A photo
    /// with no location, or one whose location is kept, is copied byte for byte; only a photo whose
    /// location is removed is re-encoded (JPEG at quality 92). The thumbnail never carries metadata.
    ///
    /// - Throws: ``PhotoProcessingError``: not an image, a format Quire does not take (TIFF, GIF,
    ///   SVG, ...), a truncated or damaged photo, an unreadable source, an unwritable directory.
    ///   Whatever it had written is removed first.
    public func prepare(_ source: URL, keepLocation: Bool, into directory: URL) throws -> PreparedImage {
        try Self.checkReadable(source)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw PhotoProcessingError(.cannotWrite, file: directory, detail: error.localizedDescription)
        }
        let stem = UUID().uuidString.lowercased()
        do {
            return try platformPrepare(source, keepLocation: keepLocation, into: directory, stem: stem)
        } catch {
            Self.removeFiles(startingWith: stem, in: directory)
            throw error
        }
    }

    /// The names of the location tags in `file`: EXIF GPS tags as "GPSLatitude", XMP's as
    /// "XMP:GPSLatitude"; sorted, empty when there are none. Reads only the metadata.
    ///
    /// - Throws: ``PhotoProcessingError`` when the file cannot be read as a photo.
    public func locationTags(of file: URL) throws -> [String] {
        try Self.checkReadable(file)
        return try platformLocationTags(of: file)
    }

    // MARK: - Shared steps

    /// Refuses a missing file, a directory and an empty file before any decoder sees them.
    static func checkReadable(_ file: URL) throws {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        } catch {
            throw PhotoProcessingError(.unreadable, file: file, detail: "no such file")
        }
        guard attributes[.type] as? FileAttributeType != .typeDirectory else {
            throw PhotoProcessingError(.unreadable, file: file, detail: "it is a directory")
        }
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw PhotoProcessingError(.unreadable, file: file, detail: "permission denied")
        }
        if (attributes[.size] as? NSNumber)?.intValue == 0 {
            throw PhotoProcessingError(.notAnImage, file: file, detail: "the file is empty, 0 bytes")
        }
    }

    /// Copies `source` to `destination` byte for byte (Foundation streams it).
    static func copyFile(_ source: URL, to destination: URL) throws {
        do {
            try FileManager.default.copyItem(at: source, to: destination)
        } catch {
            throw PhotoProcessingError(
                .cannotWrite, file: destination.deletingLastPathComponent(), detail: error.localizedDescription)
        }
    }

    /// The size shown once `orientation` (EXIF's 1...8) is applied: 5 to 8 turn the photo a quarter.
    static func upright(width: Int, height: Int, orientation: Int) -> (width: Int, height: Int) {
        (5...8).contains(orientation) ? (height, width) : (width, height)
    }

    /// Throws ``PhotoProcessingError/Code/locationRemains`` (after deleting `copy`) when `tags` is
    /// not empty: the last check before a copy that should have no location is handed back.
    static func requireNoLocation(_ tags: [String], in copy: URL, of source: URL) throws {
        guard !tags.isEmpty else { return }
        try? FileManager.default.removeItem(at: copy)
        throw PhotoProcessingError(.locationRemains, file: source, detail: tags.joined(separator: ", "))
    }

    private static func removeFiles(startingWith stem: String, in directory: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(stem) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}
