import Foundation

/// Comparisons whose running time does not reveal where two secrets differ.
public enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes.
    ///
    /// The time taken depends only on the lengths, never on the contents: use it to compare
    /// MACs, tokens and key hashes, where an early exit would let an attacker guess byte by byte.
    /// Different lengths return false at once (lengths are not secret here).
    public static func equals(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return PlatformCrypto.constantTimeEquals(a, b)
    }
}
