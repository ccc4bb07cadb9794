/// Interns units of text (lines or word tokens) by their exact UTF-8 bytes, so that equal units
/// get the same small integer and diffs compare integers.
///
/// Byte equality, not `String` equality: two spellings of "é" (precomposed, or e + U+0301) are
/// different units, so a merge copies each side's bytes exactly as that side wrote them.
/// Each symbol carries one flag chosen by the caller (see `TextUnits`).
struct SymbolTable {
    private var ids: [UnitKey: Int] = [:]
    private(set) var flags: [Bool] = []

    /// The symbol of `bytes`, made on first sight with `flag`.
    mutating func intern(_ bytes: ArraySlice<UInt8>, flag: @autoclosure () -> Bool) -> Int {
        let key = UnitKey(bytes: bytes)
        if let id = ids[key] { return id }
        let id = flags.count
        ids[key] = id
        flags.append(flag())
        return id
    }
}

/// A unit's bytes as a dictionary key: hashed and compared as raw bytes, eight at a time (every
/// line of all three texts passes through here, so this is the merge's hot path).
private struct UnitKey: Hashable {
    let bytes: ArraySlice<UInt8>

    func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.withUnsafeBytes(Self.digest))
    }

    static func == (lhs: UnitKey, rhs: UnitKey) -> Bool {
        guard lhs.bytes.count == rhs.bytes.count else { return false }
        return lhs.bytes.withUnsafeBytes { left in
            rhs.bytes.withUnsafeBytes { right in
                var offset = 0
                while offset + 8 <= left.count {
                    if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    {
                        return false
                    }
                    offset += 8
                }
                return left[offset...].elementsEqual(right[offset...])
            }
        }
    }

    /// A quick 64-bit mix of the bytes; `Hasher` then seeds and finalizes it.
    private static func digest(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        var hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(raw.count)
        var offset = 0
        while offset + 8 <= raw.count {
            hash = mix(hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        for byte in raw[offset...] { tail = tail << 8 | UInt64(byte) }
        return mix(hash ^ tail)
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &* 0xBF58_476D_1CE4_E5B9
        z ^= z >> 31
        return z &* 0x94D0_49BB_1331_11EB
    }
}
