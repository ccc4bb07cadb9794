import Foundation
import QuireClient
import QuireMedia

/// The app's ``PhotoPreparing``: QuireMedia's `PhotoProcessor` (ImageIO on Apple) in the app's own
/// process, as docs/trips.md says: the upload copy with its location removed unless kept, and
/// the 320 px thumbnail.
struct ImageIOPhotoPreparer: PhotoPreparing {
    func prepare(_ source: URL, keepLocation: Bool, into directory: URL) throws -> PreparedPhoto {
        let prepared: PreparedImage
        do {
            prepared = try PhotoProcessor().prepare(source, keepLocation: keepLocation, into: directory)
        } catch {
            throw PhotoError(.notPrepared, "\(error)")
        }
        return PreparedPhoto(
            photo: prepared.photo, thumbnail: prepared.thumbnail, mediaType: prepared.mediaType,
            width: prepared.width, height: prepared.height)
    }
}
