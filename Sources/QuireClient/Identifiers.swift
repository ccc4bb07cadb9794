import Foundation

/// The server's bookmark in an account's changes feed. Opaque: stored and sent back, never read.
public struct Cursor: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// The account a device's database syncs with. Results for any other account are refused.
public struct AccountID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}
