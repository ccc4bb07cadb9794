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

/// A unit's bytes as a dictionary key: hashed and compared as raw bytes.
private struct UnitKey: Hashable {
    let bytes: ArraySlice<UInt8>

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (lhs: UnitKey, rhs: UnitKey) -> Bool {
        guard lhs.bytes.count == rhs.bytes.count else { return false }
        return lhs.bytes.withUnsafeBufferPointer { left in
            rhs.bytes.withUnsafeBufferPointer { right in left.elementsEqual(right) }
        }
    }
}
