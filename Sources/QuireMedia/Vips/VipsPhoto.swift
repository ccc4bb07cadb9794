#if canImport(CVips) && !canImport(ImageIO)
    import CVips
    import Foundation

    /// A photo opened with libvips for one sequential pass: its format, its header, and the
    /// source it reads from.
    ///
    /// Opening reads only the header; the pixels are decoded when something is written from
    /// ``image``, once (sequential access cannot rewind, which is what keeps memory bounded).
    struct VipsPhoto {
        let file: URL
        let format: PhotoFormat
        let image: VipsImageHandle
        /// Kept alive as long as the image reads from it.
        private let source: VipsHandle<VipsSource>

        /// Opens `file`, refusing what is not a photo in a format Quire takes.
        ///
        /// - Throws: ``PhotoProcessingError``: `notAnImage` when no loader recognises the bytes,
        ///   `unsupportedFormat` for a TIFF, GIF, SVG, PDF and the like, `damaged` when the header
        ///   itself cannot be read.
        init(_ file: URL) throws {
            try VipsRuntime.start(for: file)
            let source = try VipsHandle.reading(file)
            guard let loaderName = vips_foreign_find_load_source(source.pointer) else {
                let said = VipsFailure.takeMessage()
                throw PhotoProcessingError(
                    .notAnImage, file: file, detail: said.isEmpty ? "no image format recognised" : said)
            }
            let loader = String(cString: loaderName)
            guard let family = Self.family(ofLoader: loader) else {
                throw PhotoProcessingError(.unsupportedFormat, file: file, detail: Self.describe(loader: loader))
            }
            guard let image = qvips_image_new_sequential(source.pointer) else {
                throw PhotoProcessingError(.damaged, file: file, detail: VipsFailure.takeMessage())
            }
            let handle = VipsImageHandle(image)
            self.file = file
            self.source = source
            self.image = handle
            self.format =
                family == .heic && VipsMetadata.string("heif-compression", of: handle) == "av1" ? .avif : family
        }

        /// The photo's size once turned upright.
        var uprightSize: (width: Int, height: Int) {
            PhotoProcessor.upright(
                width: Int(vips_image_get_width(image.pointer)), height: Int(vips_image_get_height(image.pointer)),
                orientation: Int(vips_image_get_orientation(image.pointer)))
        }

        /// The format a loader's class name ("VipsForeignLoadJpegSource") reads, when Quire takes it.
        /// libvips' HEIF loader reads both HEIC and AVIF; the compression tells them apart.
        static func family(ofLoader loader: String) -> PhotoFormat? {
            let name = loader.lowercased()
            if name.contains("jpeg") { return .jpeg }
            if name.contains("png") { return .png }
            if name.contains("heif") { return .heic }
            if name.contains("webp") { return .webp }
            return nil
        }

        /// "a TIFF image" for "VipsForeignLoadTiffSource".
        private static func describe(loader: String) -> String {
            let trimmed = loader.replacingOccurrences(of: "VipsForeignLoad", with: "")
                .replacingOccurrences(of: "Source", with: "").replacingOccurrences(of: "File", with: "")
            return trimmed.isEmpty ? "an image of another kind" : "a \(trimmed.uppercased()) image"
        }
    }
#endif
