import Foundation

/// Why a photo could not be prepared, with a message that says what to do next.
///
/// A struct over a code rather than an enum, so the set of codes can grow without breaking
/// callers that switch on it. The source file is never changed, whatever the error; files
/// `prepare` had started to write are removed.
public struct PhotoProcessingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable {
            case notAnImage = "not_an_image"
            case unsupportedFormat = "unsupported_format"
            case damaged
            case unreadable
            case cannotWrite = "cannot_write"
            case locationRemains = "location_remains"
            case libraryUnavailable = "library_unavailable"
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// No decoder recognises the file (an empty file, a text file, a document).
        public static let notAnImage = Code(.notAnImage)
        /// An image, but not in a format Quire takes (TIFF, GIF, SVG, ...).
        public static let unsupportedFormat = Code(.unsupportedFormat)
        /// A photo whose pixels cannot be read to the end (truncated or corrupt).
        public static let damaged = Code(.damaged)
        /// The file cannot be opened (missing, a directory, no permission).
        public static let unreadable = Code(.unreadable)
        /// The prepared files cannot be written into the directory given.
        public static let cannotWrite = Code(.cannotWrite)
        /// Location tags were still found in the copy after removing them: the copy is discarded
        /// rather than uploaded.
        public static let locationRemains = Code(.locationRemains)
        /// The image library itself failed to start.
        public static let libraryUnavailable = Code(.libraryUnavailable)

        public var description: String { value.rawValue }
    }

    public let code: Code
    /// The file the error is about: the source photo, or the directory for ``Code/cannotWrite``.
    public let file: URL
    /// What the image library said, or what was found.
    public let detail: String

    init(_ code: Code, file: URL, detail: String) {
        self.code = code
        self.file = file
        self.detail = detail
    }

    public var description: String {
        let path = file.path
        let reader = PhotoProcessor.imageLibrary
        switch code {
        case .notAnImage:
            return "\(path) is not an image \(reader) can read (\(detail)). Use \(PhotoFormat.accepted)."
        case .unsupportedFormat:
            return "\(path) is \(detail), which Quire does not take as a photo. "
                + "Convert it to \(PhotoFormat.accepted) and add it again."
        case .damaged:
            return "\(path) cannot be read to the end (\(detail)): it looks truncated or damaged. "
                + "Copy the photo from where it came from again, or use another one."
        case .unreadable:
            return "Cannot open \(path) (\(detail)). Check that the file exists and that you can read it."
        case .cannotWrite:
            return "Cannot write the prepared photo into \(path) (\(detail)). "
                + "Check the free space and the permissions of that directory."
        case .locationRemains:
            return "Removing the location from \(path) left location tags in the copy (\(detail)), "
                + "so the copy was discarded and nothing will be uploaded. "
                + "Keep the location on purpose, or strip it with another tool first."
        default:
            return "\(reader) could not start (\(detail)). Reinstall it (Debian: apt-get install libvips42)."
        }
    }
}
