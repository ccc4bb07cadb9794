#if canImport(CVips) && !canImport(ImageIO)
    import CVips
    import Foundation
    import Testing

    @testable import QuireMedia

    /// Real photos made at test time with libvips: a left half white and a right half black (so a
    /// turn is visible in the thumbnail), then EXIF and XMP spliced in by hand.
    enum TestPhotos {
        /// A JPEG of `width` × `height` with no metadata, and `exif` / `xmp` inserted when given.
        static func jpeg(
            width: Int, height: Int, exif: ExifSegment? = ExifSegment(), xmp: Bool = false, at file: URL
        ) throws {
            let image = try halves(width: width, height: height)
            try save(image, to: file) { qvips_jpegsave_stripped($0, $1, 90) }
            var data = try Data(contentsOf: file)
            if xmp { data = XMPSegment.inserted(into: data) }
            if let exif { data = exif.inserted(into: data) }
            try data.write(to: file)
        }

        /// `source` converted by libvips to the format of `suffix` (".png", ".webp", ".heic"),
        /// metadata kept (libvips carries EXIF into each of them).
        static func convert(_ source: URL, suffix: String, to file: URL) throws {
            try VipsRuntime.start(for: source)
            let photo = try VipsPhoto(source)
            try save(photo.image, to: file) { qvips_write_to_target($0, suffix, $1) }
        }

        /// A TIFF, which Quire refuses.
        static func tiff(at file: URL) throws {
            try save(try halves(width: 64, height: 48), to: file) { qvips_write_to_target($0, ".tif", $1) }
        }

        /// A PNG whose every pixel is fully transparent black.
        static func transparentPNG(width: Int, height: Int, at file: URL) throws {
            try VipsRuntime.start(for: file)
            let bytes = [UInt8](repeating: 0, count: width * height * 4)
            let image = bytes.withUnsafeBytes {
                vips_image_new_from_memory_copy(
                    $0.baseAddress, $0.count, Int32(width), Int32(height), 4, VIPS_FORMAT_UCHAR)
            }
            try save(VipsImageHandle(try #require(image)), to: file) { qvips_write_to_target($0, ".png", $1) }
        }

        /// The pixels of an image file, decoded whole (for small thumbnails only).
        static func pixels(of file: URL) throws -> Pixels {
            let photo = try VipsPhoto(file)
            var size = 0
            let image = photo.image.pointer
            let memory = try #require(vips_image_write_to_memory(image, &size))
            defer { g_free(memory) }
            return Pixels(
                width: Int(vips_image_get_width(image)), height: Int(vips_image_get_height(image)),
                bands: Int(vips_image_get_bands(image)),
                bytes: Array(UnsafeRawBufferPointer(start: memory, count: size)))
        }

        struct Pixels {
            var width: Int
            var height: Int
            var bands: Int
            var bytes: [UInt8]

            /// The first band's value at (x, y): 255 white, 0 black.
            func value(x: Int, y: Int) -> UInt8 { bytes[(y * width + x) * bands] }
        }

        private static func halves(width: Int, height: Int) throws -> VipsImageHandle {
            try VipsRuntime.start(for: URL(fileURLWithPath: "/"))
            var bytes = [UInt8](repeating: 0, count: width * height * 3)
            for y in 0..<height {
                for x in 0..<(width / 2) {
                    let at = (y * width + x) * 3
                    bytes[at] = 255
                    bytes[at + 1] = 255
                    bytes[at + 2] = 255
                }
            }
            let image = bytes.withUnsafeBytes {
                vips_image_new_from_memory_copy(
                    $0.baseAddress, $0.count, Int32(width), Int32(height), 3, VIPS_FORMAT_UCHAR)
            }
            return VipsImageHandle(try #require(image))
        }

        private static func save(
            _ image: VipsImageHandle, to file: URL,
            _ write: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<VipsTarget>) -> Int32
        ) throws {
            let target = try VipsHandle.writing(file)
            guard write(image.pointer, target.pointer) == 0 else {
                throw PhotoProcessingError(.cannotWrite, file: file, detail: VipsFailure.takeMessage())
            }
        }
    }
#endif
