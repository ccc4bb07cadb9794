import Foundation
import QuireClient

/// The CLI's ``PhotoPreparing`` while this build links no image library: the photo is uploaded
/// exactly as it is, with no thumbnail (none is claimed: companions see the photo once they
/// download it), and since it cannot read or remove location metadata it refuses unless the
/// person passes `--keep-location`, knowing the file goes as it is. QuireMedia (libvips) takes
/// its place when it is joined in.
struct UnprocessedPhoto: PhotoPreparing {
    func prepare(_ source: URL, keepLocation: Bool, into directory: URL) throws -> PreparedPhoto {
        guard keepLocation else {
            throw PhotoError(
                .notPrepared,
                "this build of quire cannot remove location metadata (EXIF GPS) from photos; pass "
                    + "--keep-location to upload \(source.lastPathComponent) exactly as it is, location included")
        }
        let copy = directory.appendingPathComponent("photo")
        try FileManager.default.copyItem(at: source, to: copy)
        return PreparedPhoto(
            photo: copy, thumbnail: nil, mediaType: Self.mediaType(of: source), width: 0, height: 0)
    }

    /// The media type a file's extension names; `application/octet-stream` for any other.
    static func mediaType(of file: URL) -> String {
        switch file.pathExtension.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "heic", "heif": "image/heic"
        case "webp": "image/webp"
        case "gif": "image/gif"
        default: "application/octet-stream"
        }
    }
}
