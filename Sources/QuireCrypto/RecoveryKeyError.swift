/// Why typed text is not a recovery key. Found on the device, before any request is made.
///
/// A struct over a private kind, as ``CryptoError``; two errors are equal when they are the same
/// kind. `message` says what is wrong and what to do, and never repeats the key.
public struct RecoveryKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    private enum Kind: Equatable, Sendable {
        case malformed
        case mistyped
    }

    private let kind: Kind
    /// For people: what is wrong with the text and how to fix it.
    public let message: String

    private init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Not the shape of a recovery key: the wrong number of symbols, or a symbol a recovery key
    /// never has.
    public static let malformed = RecoveryKeyError(
        .malformed,
        "That is not a recovery key: it is \(RecoveryKey.groupCount) groups of 4 letters and digits, "
            + "like XXXX-XXXX-…-XXXX.")

    /// The right shape, but the last group (the checksum) does not match the others: a typo.
    public static let mistyped = RecoveryKeyError(
        .mistyped,
        "The recovery key has a typo: its last group does not match the others. "
            + "Check each group against the copy you kept.")

    func with(message: String) -> RecoveryKeyError {
        RecoveryKeyError(kind, message)
    }

    public static func == (lhs: RecoveryKeyError, rhs: RecoveryKeyError) -> Bool {
        lhs.kind == rhs.kind
    }

    public var description: String { message }
}
