import Foundation

/// Why the server's part of a history or trash listing is missing or short: the listing holds
/// this device's part all the same.
public enum RemoteReadProblem: Hashable, Sendable {
    /// The server could not be read (offline, refused): `reason` is its message.
    case unavailable(reason: String)
    /// This many entries did not open with the account's key.
    case unreadable(count: Int)
}
