import Foundation

/// A member of a shared trip as this device checked them: their role and their key's fingerprint,
/// compared with the key this device first saw for them.
public struct TripMember: Hashable, Sendable, Identifiable {
    public var username: String
    public var role: TripMemberRole
    /// "ABCD-EFGH-JKMN-PQRS"; empty when they have published no key yet.
    public var fingerprint: String
    /// The fingerprint this device first saw for them, when their key is not that one any more:
    /// someone may be impersonating them, or they set up a new key.
    public var keyChangedFrom: String?

    public var id: String { username }

    public init(username: String, role: TripMemberRole, fingerprint: String, keyChangedFrom: String? = nil) {
        self.username = username
        self.role = role
        self.fingerprint = fingerprint
        self.keyChangedFrom = keyChangedFrom
    }
}
