import Foundation

/// A 256-bit symmetric key: exactly 32 bytes, for AES-256-GCM.
///
/// Equality compares in constant time. `description`, `debugDescription` and reflection print
/// no key bytes, so a key that ends up in a log or a test failure does not leak.
/// A struct cannot wipe its bytes when the last copy goes away: the bytes live in ordinary
/// `Data` storage until the memory is reused. Keep keys in the key store, and pass them around
/// only as long as needed.
public struct SymmetricKey256: Sendable, Equatable {
    /// The length of every key, in bytes.
    public static let byteCount = 32

    /// The key's 32 bytes, e.g. to store in the key store or send as the account's `authKey`.
    public let data: Data

    /// A key from exactly 32 bytes; nil for any other length.
    public init?(data: Data) {
        guard data.count == Self.byteCount else { return nil }
        // A fresh copy, so a slice of a larger buffer does not keep the rest of it alive.
        self.data = Data(data)
    }

    /// A new key from the system's secure random generator.
    public static func random() -> SymmetricKey256 {
        // SecureRandom.bytes returns exactly the count asked for, or traps.
        SymmetricKey256(data: SecureRandom.bytes(byteCount))!
    }

    /// Compares the two keys in time that does not depend on where they first differ.
    public static func == (lhs: SymmetricKey256, rhs: SymmetricKey256) -> Bool {
        ConstantTime.equals(lhs.data, rhs.data)
    }
}

extension SymmetricKey256: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "SymmetricKey256(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
