#if canImport(CVips) && !canImport(ImageIO)
    import Foundation
    import CVips
    import QuireSQLite

    /// Starts libvips once per process, the first time a photo is processed.
    ///
    /// `vips_init` must run before any other libvips call and is not safe to race; a `static let`
    /// is initialised exactly once even when several threads reach it together, so it holds the
    /// call. Also: loaders libvips marks untrusted (not written for hostile input, such as MATLAB's or
    /// ImageMagick's) are blocked, and the operation cache is off, because it keys loads by file
    /// name: a photo replaced at the same path would be answered from the cache. libvips' own
    /// warnings ("VipsJpeg: Premature end of JPEG file") are not printed: what matters comes back
    /// as an error with its message, and a CLI should not spray GLib log lines on its terminal.
    enum VipsRuntime {
        /// Nil once started; otherwise what libvips said.
        private static let failure: String? = {
            // Finding a file's loader asks OpenSlide (a libvips module) too, which starts SQLite:
            // SQLite's process-wide settings are made first (a test process opens databases too).
            _ = SQLiteLibrary.configured
            guard vips_init("quire") == 0 else { return VipsFailure.takeMessage() }
            g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, { _, _, _, _ in }, nil)
            vips_block_untrusted_set(1)
            vips_cache_set_max(0)
            return nil
        }()

        /// Starts libvips if it has not started yet.
        ///
        /// - Throws: ``PhotoProcessingError/Code/libraryUnavailable`` when it cannot start.
        static func start(for file: URL) throws {
            if let failure {
                throw PhotoProcessingError(.libraryUnavailable, file: file, detail: failure)
            }
        }
    }
#endif
