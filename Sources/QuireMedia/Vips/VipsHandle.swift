#if canImport(CVips) && !canImport(ImageIO)
    import Foundation
    import CVips

    /// One reference to a libvips object (an image, a source, a target), dropped when this goes.
    ///
    /// Not Sendable: each handle lives inside one `prepare` call on one thread.
    final class VipsHandle<Object> {
        let pointer: UnsafeMutablePointer<Object>

        init(_ pointer: UnsafeMutablePointer<Object>) {
            self.pointer = pointer
        }

        deinit {
            qvips_unref(pointer)
        }
    }

    typealias VipsImageHandle = VipsHandle<VipsImage>

    extension VipsHandle where Object == VipsSource {
        /// A source reading `file` by descriptor (not by name: libvips reads options out of names).
        static func reading(_ file: URL) throws -> VipsHandle {
            guard let source = vips_source_new_from_file(file.path) else {
                throw PhotoProcessingError(.unreadable, file: file, detail: VipsFailure.takeMessage())
            }
            return VipsHandle(source)
        }
    }

    extension VipsHandle where Object == VipsTarget {
        /// A target writing `file`, created or truncated.
        static func writing(_ file: URL) throws -> VipsHandle {
            guard let target = vips_target_new_to_file(file.path) else {
                throw PhotoProcessingError(
                    .cannotWrite, file: file.deletingLastPathComponent(), detail: VipsFailure.takeMessage())
            }
            return VipsHandle(target)
        }
    }
#endif
