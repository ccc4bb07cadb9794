/// Why a cryptographic operation failed.
///
/// A struct over a private kind so new cases can be added without breaking callers' `switch`es.
/// Two errors are equal when they are the same kind; `detail` only helps whoever reads the log.
public struct CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    private enum Kind: Equatable, Sendable {
        case authenticationFailed
        case inputTooShort
        case inputTooLarge
        case invalidKeyLength
        case invalidParameter
        case libraryFailure
    }

    private let kind: Kind

    /// A human-readable account of what went wrong, for logs. Never contains key material.
    public let detail: String

    private init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// The sealed data does not authenticate: a wrong key, wrong associated data, or a changed
    /// byte anywhere in the nonce, ciphertext or tag. AES-GCM cannot tell these apart, by design.
    public static let authenticationFailed = CryptoError(
        .authenticationFailed, "the data does not authenticate (wrong key, wrong associated data, or tampered)")

    /// The input is shorter than the smallest well-formed value (for AES-GCM, nonce plus tag).
    public static let inputTooShort = CryptoError(.inputTooShort, "the input is too short to be sealed data")

    /// The input is longer than the underlying library accepts in one call (2 GiB).
    public static let inputTooLarge = CryptoError(.inputTooLarge, "the input is too large")

    /// Bytes that should have been a 256-bit key were not 32 bytes long.
    public static let invalidKeyLength = CryptoError(.invalidKeyLength, "a key must be exactly 32 bytes")

    /// A parameter outside its valid range (iteration count, output length, nonce size).
    public static let invalidParameter = CryptoError(.invalidParameter, "a parameter is out of range")

    /// The platform library reported an error it should not have (usually out of memory).
    public static let libraryFailure = CryptoError(.libraryFailure, "the crypto library failed")

    /// The same kind of error, with a more specific `detail`.
    func with(detail: String) -> CryptoError {
        CryptoError(kind, detail)
    }

    public static func == (lhs: CryptoError, rhs: CryptoError) -> Bool {
        lhs.kind == rhs.kind
    }

    public var description: String { "CryptoError: \(detail)" }
}
