import Foundation

// Sharing a trip (seed 002 §8, issue 15). Each account publishes an X25519 public key; an owner
// invites someone by sealing the trip's key to that key (the server stores the sealed key and
// never the trip key); the invitee opens it, wraps it with its own notes key and sends that with
// the acceptance, so every member's entry in the trips feed holds a key only that member opens.

/// `PUT /v1/accounts/current/sharing-key` (and its `GET`): the account's key pair for sharing.
public struct SharingKeyDTO: Codable, Sendable, Equatable {
    /// Base64 of the 32-byte X25519 public key, published to anyone who invites this account.
    public var publicKey: String
    /// Base64 of the private key sealed with the account's notes key (AES-GCM combined form).
    public var wrappedPrivateKey: String

    public init(publicKey: String, wrappedPrivateKey: String) {
        self.publicKey = publicKey
        self.wrappedPrivateKey = wrappedPrivateKey
    }
}

/// `GET /v1/accounts/{username}/sharing-key`: another account's public key, to invite it.
public struct PublicSharingKeyDTO: Codable, Sendable, Equatable {
    public var username: String
    public var publicKey: String

    public init(username: String, publicKey: String) {
        self.username = username
        self.publicKey = publicKey
    }
}

/// `POST /v1/trips/{id}/invites`: an owner invites an account by username.
public struct TripInviteRequestDTO: Codable, Sendable, Equatable {
    public var username: String
    /// `editor` or `viewer`.
    public var role: String
    /// Base64 of the trip key sealed to the invitee's public key (`PublicKeySeal`).
    public var sealedKey: String
    /// The epoch of the key sealed (absent: 1). Not the trip's current one → 409 `trip_key_rotated`.
    public var keyEpoch: Int?

    public init(username: String, role: String, sealedKey: String, keyEpoch: Int? = nil) {
        self.username = username
        self.role = role
        self.sealedKey = sealedKey
        self.keyEpoch = keyEpoch
    }
}

/// One invitation, as the invitee's `GET /v1/invites` and the inviter's `POST` answer show it.
public struct TripInviteDTO: Codable, Sendable, Equatable {
    /// Server-made, a lowercase UUID.
    public var id: String
    public var trip: String
    /// The inviting owner's username and public key (to show its fingerprint).
    public var from: String
    public var fromPublicKey: String
    /// The invited account's username.
    public var to: String
    public var role: String
    public var sealedKey: String
    /// The epoch of the key sealed (absent: 1); a rotation seals the new key for the invitee.
    public var keyEpoch: Int?

    public init(
        id: String, trip: String, from: String, fromPublicKey: String, to: String, role: String,
        sealedKey: String, keyEpoch: Int? = nil
    ) {
        self.keyEpoch = keyEpoch
        self.id = id
        self.trip = trip
        self.from = from
        self.fromPublicKey = fromPublicKey
        self.to = to
        self.role = role
        self.sealedKey = sealedKey
    }
}

/// `GET /v1/invites`: the invitations waiting for this account, oldest first.
public struct TripInvitesDTO: Codable, Sendable, Equatable {
    public var invites: [TripInviteDTO]

    public init(invites: [TripInviteDTO]) {
        self.invites = invites
    }
}

/// `POST /v1/invites/{id}/accept`: joins the trip, keeping the trip key as this account keeps
/// the keys of its own trips.
public struct AcceptInviteRequestDTO: Codable, Sendable, Equatable {
    /// Base64 of the trip key sealed with the accepting account's notes key.
    public var wrappedKey: String

    public init(wrappedKey: String) {
        self.wrappedKey = wrappedKey
    }
}

/// One member of a trip, as `GET /v1/trips/{id}/members` lists them.
public struct TripMemberDTO: Codable, Sendable, Equatable {
    public var username: String
    public var role: String
    /// Base64 of the member's X25519 public key; empty when the account has none yet.
    public var publicKey: String
    /// The revision of the join that started the member's membership in the trip's log (its
    /// `member.<username>` entry, or the join a role change names); nil before the trip's members
    /// first changed (the log names them from then on). A device that removes the member
    /// remembers it, to tell that membership from a join since after a restore.
    public var entryRevision: Int?

    public init(username: String, role: String, publicKey: String, entryRevision: Int? = nil) {
        self.username = username
        self.role = role
        self.publicKey = publicKey
        self.entryRevision = entryRevision
    }
}

/// `GET /v1/trips/{id}/members`: every member, by username.
public struct TripMembersDTO: Codable, Sendable, Equatable {
    public var members: [TripMemberDTO]

    public init(members: [TripMemberDTO]) {
        self.members = members
    }
}

/// `PUT /v1/trips/{id}/members/{username}`: an owner changes a member's role.
public struct TripRoleRequestDTO: Codable, Sendable, Equatable {
    /// `owner`, `editor` or `viewer`.
    public var role: String

    public init(role: String) {
        self.role = role
    }
}

/// `POST /v1/trips/{id}/links`: an owner makes an invite link. The link's secret stays on the
/// devices (after `#`); the server gets the trip key sealed with a key derived from it, and the
/// hash of a token derived from it that a joiner must show.
public struct CreateTripLinkRequestDTO: Codable, Sendable, Equatable {
    /// `editor` or `viewer`.
    public var role: String
    /// Base64 of the trip key sealed with the link's key (AES-GCM combined form).
    public var sealedKey: String
    /// 64 lowercase hex digits: SHA-256 of the link's join token.
    public var tokenHash: String
    /// 1 to 720; default 168 (a week).
    public var expiresInHours: Int?
    /// How many accounts may join with it: 1 to 100; default 1.
    public var maxUses: Int?
    /// The epoch of the key sealed (absent: 1). Not the trip's current one → 409 `trip_key_rotated`.
    public var keyEpoch: Int?

    public init(
        role: String, sealedKey: String, tokenHash: String, expiresInHours: Int? = nil, maxUses: Int? = nil,
        keyEpoch: Int? = nil
    ) {
        self.keyEpoch = keyEpoch
        self.role = role
        self.sealedKey = sealedKey
        self.tokenHash = tokenHash
        self.expiresInHours = expiresInHours
        self.maxUses = maxUses
    }
}

/// An invite link as the server keeps it (never its secret).
public struct TripLinkDTO: Codable, Sendable, Equatable {
    /// Server-made, a lowercase UUID: the link's path part.
    public var id: String
    public var trip: String
    public var role: String
    /// The owner who made it.
    public var from: String
    public var sealedKey: String
    public var expiresAt: Date
    public var usesLeft: Int
    /// The epoch of the key sealed (absent: 1).
    public var keyEpoch: Int?

    public init(
        id: String, trip: String, role: String, from: String, sealedKey: String, expiresAt: Date, usesLeft: Int,
        keyEpoch: Int? = nil
    ) {
        self.keyEpoch = keyEpoch
        self.id = id
        self.trip = trip
        self.role = role
        self.from = from
        self.sealedKey = sealedKey
        self.expiresAt = expiresAt
        self.usesLeft = usesLeft
    }
}

/// `POST /v1/links/{id}/open` and `POST /v1/links/{id}/join`: the join token derived from the
/// link's secret, and (to join) the trip key wrapped with the joining account's notes key.
public struct TripLinkJoinRequestDTO: Codable, Sendable, Equatable {
    /// Base64 of the 32-byte join token.
    public var token: String
    public var wrappedKey: String?

    public init(token: String, wrappedKey: String? = nil) {
        self.token = token
        self.wrappedKey = wrappedKey
    }
}
