import Foundation

// Rotating a trip's key (issue 15). Each rotation makes the trip's next key epoch: a new random
// key, wrapped for every remaining member and pending invitee (sealed to their public keys), and
// the previous key sealed with the new one (the chain), so whoever holds the newest key can open
// every older value and whoever holds only an older key cannot open anything newer.

/// `GET /v1/trips/{id}/keys`: what a member needs to catch up with the trip's keys, and what an
/// owner needs to rotate it.
public struct TripKeysDTO: Codable, Sendable, Equatable {
    /// The trip's current key epoch (1 before any rotation).
    public var epoch: Int
    /// For each epoch after the first, the key of the epoch before it sealed with that epoch's
    /// key, oldest first.
    public var chain: [TripKeyLinkDTO]
    /// The members a rotation must wrap the new key for, with their public keys.
    public var members: [TripMemberDTO]
    /// The pending invitations a rotation must wrap the new key for (owners only; empty for
    /// other members).
    public var invites: [TripKeyInviteeDTO]
    /// A member left or was removed since the last rotation: an owner's device rotates.
    public var rekeyDue: Bool

    public init(
        epoch: Int, chain: [TripKeyLinkDTO], members: [TripMemberDTO], invites: [TripKeyInviteeDTO], rekeyDue: Bool
    ) {
        self.epoch = epoch
        self.chain = chain
        self.members = members
        self.invites = invites
        self.rekeyDue = rekeyDue
    }
}

/// One link of a trip's key chain.
public struct TripKeyLinkDTO: Codable, Sendable, Equatable {
    /// The epoch whose key sealed `previousKey`.
    public var epoch: Int
    /// Base64 of the key of `epoch - 1`, AES-256-GCM under the key of `epoch`, with associated
    /// data `quire-trip-key-chain-v1|<trip>|<epoch>`.
    public var previousKey: String

    public init(epoch: Int, previousKey: String) {
        self.epoch = epoch
        self.previousKey = previousKey
    }
}

/// A pending invitation of a trip, as a rotation must cover it.
public struct TripKeyInviteeDTO: Codable, Sendable, Equatable {
    public var invite: String
    public var username: String
    public var publicKey: String

    public init(invite: String, username: String, publicKey: String) {
        self.invite = invite
        self.username = username
        self.publicKey = publicKey
    }
}

/// `POST /v1/trips/{id}/keys`: an owner rotates the trip's key, removing `remove` in the same
/// transaction. `members` must name exactly the members left after the removals and `invites`
/// exactly the pending invitations, or the server answers 409 `members_changed` (fetch the keys
/// again and retry); `epoch` must be the current one plus one, or 409 `trip_key_rotated`.
/// Open invite links are revoked: their sealed key is the old one, and anyone who saw one (the
/// member just removed, say) could join with it.
public struct RotateTripKeyRequestDTO: Codable, Sendable, Equatable {
    public var epoch: Int
    /// Base64 of the key of `epoch - 1` sealed with the new key (``TripKeyLinkDTO/previousKey``).
    public var previousKey: String
    public var members: [TripWrappedKeyDTO]
    public var invites: [TripWrappedKeyDTO]
    /// Usernames to remove first (an owner's removal of others; leaving is `DELETE`).
    public var remove: [String]?
    /// The new key's check (``TripKeyCheckText``); ops requests sealed with another key of this
    /// epoch are refused with 409 `trip_key_rotated`.
    public var keyCheck: String?

    public init(
        epoch: Int, previousKey: String, members: [TripWrappedKeyDTO], invites: [TripWrappedKeyDTO],
        remove: [String]? = nil, keyCheck: String? = nil
    ) {
        self.keyCheck = keyCheck
        self.epoch = epoch
        self.previousKey = previousKey
        self.members = members
        self.invites = invites
        self.remove = remove
    }
}

/// The new key for one member (by `username`) or one invitation (by its id in `username`'s
/// place: ``invite``), sealed to their public key (`PublicKeySeal`, associated data
/// `quire-trip-rekey-v1|<trip>|<epoch>|<username>`).
public struct TripWrappedKeyDTO: Codable, Sendable, Equatable {
    public var username: String
    /// Set for an invitation: its id.
    public var invite: String?
    public var sealedKey: String

    public init(username: String, invite: String? = nil, sealedKey: String) {
        self.username = username
        self.invite = invite
        self.sealedKey = sealedKey
    }
}

/// The answer to a rotation: the trip's new epoch.
public struct TripKeyRotatedDTO: Codable, Sendable, Equatable {
    public var epoch: Int

    public init(epoch: Int) {
        self.epoch = epoch
    }
}
