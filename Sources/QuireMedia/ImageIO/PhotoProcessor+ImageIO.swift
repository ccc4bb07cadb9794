#if canImport(ImageIO)
    import CoreGraphics
    import Foundation
    import ImageIO

    // MARK: - ImageIO (Apple)

    extension PhotoProcessor {
        /// Named in error messages.
        static let imageLibrary = "ImageIO"
        static let thumbnailQuality = 0.8

        func platformPrepare(_ source: URL, keepLocation: Bool, into directory: URL, stem: String) throws
            -> PreparedImage
        {
            let photo = try ImageIOPhoto(source)
            let thumbnail = directory.appendingPathComponent("\(stem)-thumbnail.jpg")
            try Self.writeThumbnail(of: photo, to: thumbnail)
            var format = photo.format
            var copy = directory.appendingPathComponent("\(stem).\(format.fileExtension)")
            if keepLocation || photo.locationTags.isEmpty {
                try Self.copyFile(source, to: copy)
            } else if Self.canWrite(format) {
                try Self.copyWithoutLocation(photo, to: copy)
                try Self.requireNoLocation(try locationTags(of: copy), in: copy, of: source)
            } else {
                // ImageIO reads WebP but cannot write it: the copy becomes a JPEG.
                format = .jpeg
                copy = directory.appendingPathComponent("\(stem).\(format.fileExtension)")
                try Self.reencodeWithoutLocation(photo, to: copy)
                try Self.requireNoLocation(try locationTags(of: copy), in: copy, of: source)
            }
            let size = photo.uprightSize
            return PreparedImage(
                photo: copy, thumbnail: thumbnail, mediaType: format.mediaType, width: size.width,
                height: size.height)
        }

        func platformLocationTags(of file: URL) throws -> [String] {
            try ImageIOPhoto(file).locationTags
        }

        /// An upright JPEG fitting a 320 × 320 box, decoded at reduced size, with no metadata
        /// (no properties are passed to the destination).
        private static func writeThumbnail(of photo: ImageIOPhoto, to thumbnail: URL) throws {
            let options: [CFString: Any] = [
                kCGImageSourceCreateThumbnailFromImageAlways: true,
                kCGImageSourceCreateThumbnailWithTransform: true,
                kCGImageSourceThumbnailMaxPixelSize: thumbnailLongSide,
                kCGImageSourceShouldCacheImmediately: false,
            ]
            guard let image = CGImageSourceCreateThumbnailAtIndex(photo.source, 0, options as CFDictionary) else {
                throw PhotoProcessingError(.damaged, file: photo.file, detail: "ImageIO could not decode it")
            }
            let destination = try Self.destination(thumbnail, type: ImageIOPhoto.typeIdentifier(of: .jpeg))
            let properties: [CFString: Any] = [kCGImageDestinationLossyCompressionQuality: thumbnailQuality]
            CGImageDestinationAddImage(destination, image, properties as CFDictionary)
            guard CGImageDestinationFinalize(destination) else {
                throw PhotoProcessingError(
                    .cannotWrite, file: thumbnail.deletingLastPathComponent(), detail: "the JPEG could not be written")
            }
        }

        /// Copies the photo's encoded image without decoding it (lossless), leaving out the GPS
        /// metadata, EXIF's and XMP's (`kCGImageMetadataShouldExcludeGPS`).
        private static func copyWithoutLocation(_ photo: ImageIOPhoto, to copy: URL) throws {
            let destination = try Self.destination(copy, type: ImageIOPhoto.typeIdentifier(of: photo.format))
            let options: [CFString: Any] = [kCGImageMetadataShouldExcludeGPS: true]
            var error: Unmanaged<CFError>?
            // CGImageDestinationCopyImageSource writes and finishes the file itself: no Finalize.
            guard CGImageDestinationCopyImageSource(destination, photo.source, options as CFDictionary, &error) else {
                let detail = error.map { "\($0.takeRetainedValue())" } ?? "ImageIO could not copy it"
                throw PhotoProcessingError(.cannotWrite, file: copy.deletingLastPathComponent(), detail: detail)
            }
        }

        /// Decodes and re-encodes the photo as a JPEG with its properties but not its GPS ones.
        private static func reencodeWithoutLocation(_ photo: ImageIOPhoto, to copy: URL) throws {
            let destination = try Self.destination(copy, type: ImageIOPhoto.typeIdentifier(of: .jpeg))
            let properties: [CFString: Any] = [
                kCGImagePropertyGPSDictionary: kCFNull as Any,
                kCGImageMetadataShouldExcludeGPS: true,
                kCGImageDestinationLossyCompressionQuality: 0.92,
            ]
            CGImageDestinationAddImageFromSource(destination, photo.source, 0, properties as CFDictionary)
            guard CGImageDestinationFinalize(destination) else {
                throw PhotoProcessingError(.damaged, file: photo.file, detail: "ImageIO could not re-encode it")
            }
        }

        private static func canWrite(_ format: PhotoFormat) -> Bool {
            let writable = CGImageDestinationCopyTypeIdentifiers() as? [String] ?? []
            return writable.contains(ImageIOPhoto.typeIdentifier(of: format))
        }

        private static func destination(_ file: URL, type: String) throws -> CGImageDestination {
            guard let destination = CGImageDestinationCreateWithURL(file as CFURL, type as CFString, 1, nil) else {
                throw PhotoProcessingError(
                    .cannotWrite, file: file.deletingLastPathComponent(), detail: "ImageIO cannot create \(type)")
            }
            return destination
        }
    }
#endif
