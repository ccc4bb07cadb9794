#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What every fuzz target shares: the input as bytes, cut into fields, and a failed invariant
/// reported the way libFuzzer records a crash (the input is saved as a crash artifact).
///
/// Compiled into each target's own module by scripts/fuzz.sh (docs/security.md, "Fuzzing").
enum FuzzInput {
    /// The bytes libFuzzer passes (it may pass a null pointer with a size of 0).
    static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// `bytes` cut at each 0x00 into exactly `count` fields: missing ones are empty, and the last
    /// keeps any further zero bytes.
    static func fields(_ bytes: [UInt8], count: Int) -> [[UInt8]] {
        var fields = bytes.split(separator: 0, maxSplits: count - 1, omittingEmptySubsequences: false)
            .map(Array.init)
        while fields.count < count { fields.append([]) }
        return fields
    }

    /// `bytes` as text (invalid UTF-8 becomes U+FFFD, as everywhere the code meets bytes).
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Ends the run as a crash when `condition` is false: an invariant the code promises broke.
    static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        guard !condition() else { return }
        let line = Array("fuzz invariant failed: \(message())\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        abort()
    }
}
