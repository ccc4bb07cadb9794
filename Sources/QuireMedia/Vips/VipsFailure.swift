#if canImport(CVips) && !canImport(ImageIO)
    import Foundation
    import CVips

    /// Reads libvips' error buffer, where a failed call leaves its reason.
    ///
    /// The buffer is one per process, so two photos failing at the same moment can mix their
    /// messages; the message is for people, and each call's result code is what decides.
    enum VipsFailure {
        /// The buffer's text on one line (empty when libvips said nothing), and the buffer cleared.
        static func takeMessage() -> String {
            guard let copy = vips_error_buffer_copy() else { return "" }
            defer { g_free(copy) }
            return String(cString: copy).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                .joined(separator: "; ")
        }
    }
#endif
