import Foundation

/// Why sharing a trip stopped before the server was asked.
public enum TripMembersError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The person's key is not the one this device first saw for them: never used until the
    /// person sharing compares it with them and takes it.
    case keyChanged(username: String, fingerprint: String)
    /// Text given as an invite link is not a whole one (https://SERVER/join/ID#SECRET).
    case notALink

    public var description: String {
        switch self {
        case .keyChanged(let username, let fingerprint):
            "\(username)'s key changed since this device first saw it (now \(fingerprint)); compare it with them"
        case .notALink:
            "that is not a whole invite link (https://SERVER/join/ID#SECRET); copy all of it"
        }
    }
}
