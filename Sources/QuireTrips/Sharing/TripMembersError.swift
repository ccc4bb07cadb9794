import Foundation

/// Why sharing a trip stopped before the server was asked.
public enum TripMembersError: Error, Hashable, Sendable {
    /// The invitee's key is not the one this device first saw for them: never used until the
    /// person sharing compares it with them and takes it.
    case keyChanged(username: String, fingerprint: String)
}
