#if canImport(CJemalloc)
    import CJemalloc

    /// The device's allocator gives freed pages back to the system at once.
    ///
    /// jemalloc (linked on Linux, Package.swift says why) keeps freed pages for about ten seconds
    /// by default, to hand them out again without asking the kernel. For a server that churns
    /// memory that saves work; for the device it is resident memory nobody uses: `quire sync`
    /// uploading a 200 MB photo peaked at 50 to 56 MiB with it (debug build) against the < 50 MB
    /// the issue sets, and under 50 with the pages given back
    /// (`KilledPhotoUploadTests.uploadingTwoHundredMegabytesKeepsQuireUnderFiftyMegabytes`).
    enum FreedMemory {
        /// Sets every arena's decay times, and new arenas', to 0 (jemalloc's `mallctl`; the
        /// names are its documented controls, 4096 standing for all arenas). A control that fails
        /// leaves jemalloc's default: memory, not correctness.
        static func returnAtOnce() {
            var zero = 0  // ssize_t
            for name in [
                "arenas.dirty_decay_ms", "arenas.muzzy_decay_ms", "arena.4096.dirty_decay_ms",
                "arena.4096.muzzy_decay_ms",
            ] {
                _ = mallctl(name, nil, nil, &zero, MemoryLayout<Int>.size)
            }
        }
    }
#endif
