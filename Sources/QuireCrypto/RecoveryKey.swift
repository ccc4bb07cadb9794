import Foundation

/// An account's recovery key: 160 random bits that unwrap the notes key a second time, so a
/// forgotten password does not lose the notes (issue 12, item 11).
///
/// Shown to the person once, as nine groups of four Crockford base32 symbols: eight spell the
/// 160 bits, the ninth is a checksum (the first 20 bits of the key's SHA-256), so a typo is
/// caught on the device, before any request (a wrong symbol slips through once in a million).
///
/// Two keys come from it with HKDF-SHA256 and distinct `info` strings: ``wrappingKey`` seals the
/// notes key (the server stores the sealed copy), and ``authKey`` proves knowledge of the recovery
/// key to the server (which stores only a slow salted hash of it). Neither reveals the other,
/// nor the recovery key. No derivation needs to be slow: 160 random bits cannot be guessed.
/// `description` and reflection print nothing of the key.
public struct RecoveryKey: Sendable, Equatable {
    /// The key's length in bytes (160 bits).
    public static let byteCount = 20
    /// The groups shown to the person: eight of the key, one of checksum.
    public static let groupCount = 9
    static let symbolsPerGroup = 4
    static let keySymbols = byteCount * 8 / 5

    /// The key's 20 bytes.
    public let data: Data

    /// A key from exactly ``byteCount`` bytes; nil for any other length.
    public init?(data: Data) {
        guard data.count == Self.byteCount else { return nil }
        self.data = Data(data)
    }

    /// A new key from the system's secure random generator.
    public static func random() -> RecoveryKey {
        // SecureRandom.bytes returns exactly the count asked for, or traps.
        RecoveryKey(data: SecureRandom.bytes(byteCount))!
    }

    /// Reads a key as a person typed it: groups separated by hyphens or spaces (or none), any
    /// case, O for 0 and I or L for 1.
    /// - Throws: ``RecoveryKeyError/malformed`` for the wrong number of symbols or a symbol not in
    ///   the alphabet; ``RecoveryKeyError/mistyped`` when the checksum group does not match.
    public init(parsing text: String) throws(RecoveryKeyError) {
        let symbols = text.filter { !$0.isWhitespace && $0 != "-" }.map(CrockfordBase32.normalized)
        let expected = Self.keySymbols + Self.symbolsPerGroup
        guard symbols.count == expected else {
            throw RecoveryKeyError.malformed.with(
                message: RecoveryKeyError.malformed.message
                    + " This has \(symbols.count) letters and digits; a recovery key has \(expected).")
        }
        if let stray = symbols.first(where: { !CrockfordBase32.alphabet.contains($0) }) {
            throw RecoveryKeyError.malformed.with(
                message: RecoveryKeyError.malformed.message + " It never has \"\(stray)\".")
        }
        // Every symbol is in the alphabet and there are 32 of them: 20 bytes.
        let data = CrockfordBase32.decode(Array(symbols.prefix(Self.keySymbols)))!
        guard String(symbols.suffix(Self.symbolsPerGroup)) == Self.checksum(of: data) else {
            throw RecoveryKeyError.mistyped
        }
        self.data = data
    }

    /// The key as shown to the person: `XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-CCCC`.
    public var groupedText: String {
        let symbols = Array(CrockfordBase32.encode(data, symbols: Self.keySymbols) + Self.checksum(of: data))
        return stride(from: 0, to: symbols.count, by: Self.symbolsPerGroup)
            .map { String(symbols[$0..<($0 + Self.symbolsPerGroup)]) }
            .joined(separator: "-")
    }

    /// Seals and opens the notes key's recovery copy. Never leaves the device.
    public var wrappingKey: SymmetricKey256 { derive("quire recovery wrapping key v1") }

    /// Proves knowledge of the recovery key to the server, which keeps only a slow hash of it.
    public var authKey: SymmetricKey256 { derive("quire recovery auth key v1") }

    private func derive(_ info: String) -> SymmetricKey256 {
        // 32 bytes is in HKDF's range, so neither can fail.
        let bytes = try! HKDF.sha256(
            inputKeyMaterial: data, salt: Data("quire-recovery-key-v1".utf8), info: Data(info.utf8),
            length: SymmetricKey256.byteCount)
        return SymmetricKey256(data: bytes)!
    }

    /// The four checksum symbols of `data`.
    private static func checksum(of data: Data) -> String {
        CrockfordBase32.encode(SHA256Digest.hash(data), symbols: symbolsPerGroup)
    }

    /// Compares in constant time, like ``SymmetricKey256``.
    public static func == (lhs: RecoveryKey, rhs: RecoveryKey) -> Bool {
        ConstantTime.equals(lhs.data, rhs.data)
    }
}

extension RecoveryKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "RecoveryKey(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
