#if canImport(CVips) && !canImport(ImageIO)
    import CVips
    import Foundation

    /// Location metadata on a libvips image: finding it and removing it.
    ///
    /// libvips parses a photo's EXIF into fields named `exif-ifdN-Tag`; IFD 3 is the GPS block.
    /// When a JPEG, PNG, WebP or HEIF is saved, libvips rebuilds the EXIF from the blob
    /// `exif-data` and drops every tag whose field was removed, and libexif then writes no GPS
    /// block (and no pointer to one) at all: removing the `exif-ifd3-` fields removes the GPS tags
    /// and keeps every other one (checked with exiftool in QuireMediaTests). XMP travels as the
    /// blob `xmp-data` (`heif-mime-N` in a HEIF), rewritten by ``XMPLocation``.
    enum VipsMetadata {
        static let gpsPrefix = "exif-ifd3-"

        /// Every field name of `image`.
        static func fieldNames(of image: VipsImageHandle) -> [String] {
            guard let fields = vips_image_get_fields(image.pointer) else { return [] }
            defer { g_strfreev(fields) }
            var names: [String] = []
            var index = 0
            while let name = fields[index] {
                names.append(String(cString: name))
                index += 1
            }
            return names
        }

        /// Location tag names, as ``PhotoProcessor/locationTags(of:)`` lists them.
        static func locationTags(of image: VipsImageHandle) -> [String] {
            let names = fieldNames(of: image)
            let exif = names.filter { $0.hasPrefix(gpsPrefix) }.map { String($0.dropFirst(gpsPrefix.count)) }
            let xmp = names.filter(isXMP).flatMap { blob($0, of: image).map(XMPLocation.tags(in:)) ?? [] }
            return Array(Set(exif + xmp)).sorted()
        }

        /// Removes the EXIF GPS fields and XMP's GPS properties from `image` (a private copy:
        /// ``copy(_:)``); an XMP packet that still names GPS after that is removed whole.
        static func removeLocation(from image: VipsImageHandle) {
            let names = fieldNames(of: image)
            for name in names where name.hasPrefix(gpsPrefix) {
                _ = vips_image_remove(image.pointer, name)
            }
            for name in names where isXMP(name) {
                guard let packet = blob(name, of: image), !XMPLocation.tags(in: packet).isEmpty else { continue }
                if let cleaned = XMPLocation.removingLocation(from: packet) {
                    cleaned.withUnsafeBytes { vips_image_set_blob_copy(image.pointer, name, $0.baseAddress, $0.count) }
                } else {
                    _ = vips_image_remove(image.pointer, name)
                }
            }
        }

        /// A new image over the same pixels whose metadata can change without touching `image`'s.
        static func copy(_ image: VipsImageHandle, of file: URL) throws -> VipsImageHandle {
            var out: UnsafeMutablePointer<VipsImage>?
            guard qvips_copy(image.pointer, &out) == 0, let out else {
                throw PhotoProcessingError(.damaged, file: file, detail: VipsFailure.takeMessage())
            }
            return VipsImageHandle(out)
        }

        /// A string field's value, or nil.
        static func string(_ name: String, of image: VipsImageHandle) -> String? {
            var value: UnsafePointer<CChar>?
            guard vips_image_get_typeof(image.pointer, name) != 0,
                vips_image_get_string(image.pointer, name, &value) == 0, let value
            else { return nil }
            return String(cString: value)
        }

        /// A blob field's bytes, or nil.
        static func blob(_ name: String, of image: VipsImageHandle) -> [UInt8]? {
            var data: UnsafeRawPointer?
            var length = 0
            guard vips_image_get_blob(image.pointer, name, &data, &length) == 0, let data else { return nil }
            return Array(UnsafeRawBufferPointer(start: data, count: length))
        }

        private static func isXMP(_ name: String) -> Bool {
            name == "xmp-data" || name.hasPrefix("heif-mime-")
        }
    }
#endif
