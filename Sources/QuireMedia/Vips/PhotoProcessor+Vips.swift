#if canImport(CVips) && !canImport(ImageIO)
    import CVips
    import Foundation

    // MARK: - libvips (Linux)

    extension PhotoProcessor {
        /// Named in error messages.
        static let imageLibrary = "libvips"
        /// The re-encoded copy's JPEG quality, near what phone cameras write: a photo whose location
        /// is removed is decoded and encoded again, and should not visibly lose.
        static let photoQuality = 92
        static let thumbnailQuality = 80

        func platformPrepare(_ source: URL, keepLocation: Bool, into directory: URL, stem: String) throws
            -> PreparedImage
        {
            let photo = try VipsPhoto(source)
            let thumbnail = directory.appendingPathComponent("\(stem)-thumbnail.jpg")
            // Decodes the whole photo (a JPEG shrunk while decoding): a truncated file fails here.
            try Self.writeThumbnail(of: source, to: thumbnail)
            let copy = directory.appendingPathComponent("\(stem).\(photo.format.fileExtension)")
            if keepLocation || VipsMetadata.locationTags(of: photo.image).isEmpty {
                try Self.copyFile(source, to: copy)
            } else {
                try Self.writeWithoutLocation(photo, to: copy)
                try Self.requireNoLocation(try locationTags(of: copy), in: copy, of: source)
            }
            let size = photo.uprightSize
            return PreparedImage(
                photo: copy, thumbnail: thumbnail, mediaType: photo.format.mediaType, width: size.width,
                height: size.height)
        }

        func platformLocationTags(of file: URL) throws -> [String] {
            VipsMetadata.locationTags(of: try VipsPhoto(file).image)
        }

        /// An upright JPEG fitting a 320 × 320 box, on white where the photo was transparent,
        /// with no metadata (`strip`: libvips' thumbnail otherwise keeps the GPS tags).
        private static func writeThumbnail(of source: URL, to thumbnail: URL) throws {
            let input = try VipsHandle.reading(source)
            var out: UnsafeMutablePointer<VipsImage>?
            guard qvips_thumbnail_source(input.pointer, &out, Int32(thumbnailLongSide)) == 0, let out else {
                throw PhotoProcessingError(.damaged, file: source, detail: VipsFailure.takeMessage())
            }
            var image = VipsImageHandle(out)
            if vips_image_hasalpha(image.pointer) != 0 {
                var flat: UnsafeMutablePointer<VipsImage>?
                guard qvips_flatten_white(image.pointer, &flat) == 0, let flat else {
                    throw PhotoProcessingError(.damaged, file: source, detail: VipsFailure.takeMessage())
                }
                image = VipsImageHandle(flat)
            }
            let target = try VipsHandle.writing(thumbnail)
            guard qvips_jpegsave_stripped(image.pointer, target.pointer, Int32(thumbnailQuality)) == 0 else {
                throw saveFailure(source: source, destination: thumbnail)
            }
        }

        /// Writes `photo` in its own format with every metadata field but its location.
        private static func writeWithoutLocation(_ photo: VipsPhoto, to copy: URL) throws {
            let image = try VipsMetadata.copy(photo.image, of: photo.file)
            VipsMetadata.removeLocation(from: image)
            let target = try VipsHandle.writing(copy)
            let suffix: String
            switch photo.format {
            case .jpeg: suffix = ".jpg[Q=\(photoQuality)]"
            case .png: suffix = ".png"
            case .webp: suffix = ".webp[Q=\(photoQuality)]"
            case .heic: suffix = ".heic[Q=\(photoQuality)]"
            case .avif: suffix = ".avif[Q=\(photoQuality)]"
            }
            guard qvips_write_to_target(image.pointer, suffix, target.pointer) == 0 else {
                throw saveFailure(source: photo.file, destination: copy)
            }
        }

        /// A save fails because the pixels could not be decoded (the usual case: the source is
        /// truncated) or because the file could not be written; libvips' message tells which.
        private static func saveFailure(source: URL, destination: URL) -> PhotoProcessingError {
            let said = VipsFailure.takeMessage()
            let writing = ["unable to write", "no space", "write failed", "permission denied"]
            if writing.contains(where: said.lowercased().contains) {
                return PhotoProcessingError(.cannotWrite, file: destination.deletingLastPathComponent(), detail: said)
            }
            return PhotoProcessingError(.damaged, file: source, detail: said)
        }
    }
#endif
