import Foundation

/// Why a sync run stopped, by what the user or the engine should do next.
public struct SyncFailure: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable, Codable {
        /// Network trouble or a busy server: try again later, nothing is lost.
        case transient
        /// The server could not be reached at all.
        case unreachable
        /// The server no longer accepts this device's token: sign in again.
        case signedOut
        /// A local database error.
        case storage
    }

    public var kind: Kind
    public var message: String
    /// The server asked to wait this many seconds (`Retry-After`).
    public var retryAfter: Double?

    public init(kind: Kind, message: String, retryAfter: Double? = nil) {
        self.kind = kind
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { message }
}
