import Foundation

/// A short, readable fingerprint of a public key, for two people to compare out of band
/// ("does yours say 7K3Q-9XMD-2B4F-PQ81?"): the first 80 bits of its SHA-256 in Crockford's
/// base32, in four groups of four. 80 bits: finding another key with the same fingerprint takes
/// about 2^80 tries.
public enum KeyFingerprint {
    public static func of(_ publicKey: Data) -> String {
        let symbols = CrockfordBase32.encode(SHA256Digest.hash(publicKey), symbols: 16)
        return stride(from: 0, to: 16, by: 4).map { start in
            String(symbols.dropFirst(start).prefix(4))
        }.joined(separator: "-")
    }
}
