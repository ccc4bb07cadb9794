#if canImport(ImageIO)
    import CoreGraphics
    import Foundation
    import ImageIO

    /// A photo opened with ImageIO: its format, its properties, and the image source (which
    /// decodes lazily and does not cache the full image).
    struct ImageIOPhoto {
        let file: URL
        let source: CGImageSource
        let format: PhotoFormat
        private let properties: [String: Any]

        /// Opens `file`, refusing what is not a photo in a format Quire takes.
        ///
        /// - Throws: ``PhotoProcessingError``: `notAnImage`, `unsupportedFormat`, or `damaged`
        ///   when ImageIO finds the data incomplete.
        init(_ file: URL) throws {
            let options: [CFString: Any] = [kCGImageSourceShouldCache: false]
            guard let source = CGImageSourceCreateWithURL(file as CFURL, options as CFDictionary),
                let type = CGImageSourceGetType(source) as String?
            else {
                throw PhotoProcessingError(.notAnImage, file: file, detail: "no image format recognised")
            }
            guard let format = PhotoFormat.allCases.first(where: { Self.typeIdentifier(of: $0) == type }) else {
                throw PhotoProcessingError(.unsupportedFormat, file: file, detail: "an image of type \(type)")
            }
            guard CGImageSourceGetCount(source) > 0,
                let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, options as CFDictionary)
                    as? [String: Any]
            else {
                throw PhotoProcessingError(.notAnImage, file: file, detail: "it holds no image")
            }
            let status = CGImageSourceGetStatusAtIndex(source, 0)
            guard status == .statusComplete else {
                throw PhotoProcessingError(.damaged, file: file, detail: "ImageIO status \(status.rawValue)")
            }
            self.file = file
            self.source = source
            self.format = format
            self.properties = properties
        }

        /// The photo's size once turned upright.
        var uprightSize: (width: Int, height: Int) {
            PhotoProcessor.upright(
                width: properties[kCGImagePropertyPixelWidth as String] as? Int ?? 0,
                height: properties[kCGImagePropertyPixelHeight as String] as? Int ?? 0,
                orientation: properties[kCGImagePropertyOrientation as String] as? Int ?? 1)
        }

        /// EXIF GPS tags as "GPSLatitude" (ImageIO names them "Latitude" in the GPS dictionary)
        /// and XMP's GPS properties as "XMP:GPSLatitude", sorted.
        var locationTags: [String] {
            let gps = (properties[kCGImagePropertyGPSDictionary as String] as? [String: Any]) ?? [:]
            var tags = Set(gps.keys.map { $0.hasPrefix("GPS") ? $0 : "GPS\($0)" })
            if let metadata = CGImageSourceCopyMetadataAtIndex(source, 0, nil),
                let all = CGImageMetadataCopyTags(metadata) as? [CGImageMetadataTag]
            {
                for tag in all {
                    guard let name = CGImageMetadataTagCopyName(tag) as String?, name.hasPrefix("GPS"),
                        CGImageMetadataTagCopyNamespace(tag) as String? == (kCGImageMetadataNamespaceExif as String)
                    else { continue }
                    tags.insert("XMP:\(name)")
                }
            }
            return tags.sorted()
        }

        /// The uniform type identifier ImageIO uses for `format`.
        static func typeIdentifier(of format: PhotoFormat) -> String {
            switch format {
            case .jpeg: "public.jpeg"
            case .png: "public.png"
            case .heic: "public.heic"
            case .avif: "public.avif"
            case .webp: "org.webmproject.webp"
            }
        }
    }
#endif
