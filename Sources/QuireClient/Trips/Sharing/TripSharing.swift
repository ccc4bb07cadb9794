import Foundation
import QuireCrypto
import QuireTrips
import QuireWire

/// Sharing this account's trips and joining others' (issue 15), online: each call talks to the
/// server at once. What a trip holds still syncs as before; a trip joined here arrives with the
/// next sync, and one this account left is deleted here at once.
///
/// The account's key pair is made on first use and published, its private half sealed with the
/// notes key. Every public key met (an invitee's, an inviter's, a member's) is checked against
/// the one this device first saw for that person: a changed key is a warning and is never used
/// to invite until the person takes it (`trustingNewKey`).
public struct TripSharing: Sendable {
    let api: any TripSharingAPI & TripLinkAPI & TripKeysAPI
    let database: TripsDatabase
    /// The server links point to.
    let server: URL
    let keys: SharingKeyWrapping
    let tripKeys: TripKeyWrapping
    /// This account's username.
    public let username: String

    public init(
        api: any TripSharingAPI & TripLinkAPI & TripKeysAPI, database: TripsDatabase, notesKey: SymmetricKey256,
        account: AccountID, username: String, server: URL
    ) {
        self.api = api
        self.server = server
        self.database = database
        self.keys = SharingKeyWrapping(notesKey: notesKey, account: account)
        self.tripKeys = TripKeyWrapping(notesKey: notesKey, account: account)
        self.username = username.lowercased()
    }

    /// A person as a trip's member list or an invitation shows them.
    public struct Person: Sendable, Equatable {
        public var username: String
        public var role: String
        /// Empty when they have published no key.
        public var fingerprint: String
        public var key: TripsDatabase.KeyCheck
    }

    /// An invitation waiting for this account.
    public struct Invitation: Sendable, Equatable {
        public var id: String
        public var trip: TripID
        public var from: Person
    }

    /// Why sharing refused before asking the server.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
        /// Set when the refusal is a person's changed key, for the app to ask about it.
        public var keyChanged: TripMembersError? = nil
    }

    // MARK: - The account's key pair

    /// This account's private sharing key: the published one, or a new one made and published.
    /// - Throws: ``TripSealingError`` when the published one does not open with the notes key.
    @discardableResult
    public func keyPair() async throws -> X25519.PrivateKey {
        if let stored = try await api.sharingKey() { return try keys.unwrap(stored.wrappedPrivateKey) }
        let privateKey = X25519.PrivateKey()
        try await api.publishSharingKey(
            SharingKeyDTO(
                publicKey: try privateKey.publicKey().base64EncodedString(),
                wrappedPrivateKey: try keys.wrap(privateKey)))
        return privateKey
    }

    // MARK: - Owners

    /// Invites `invitee` to `trip` with `role` (editor or viewer), sealing the trip key to their
    /// public key. Returns them as checked.
    public func share(_ trip: TripID, with invitee: String, role: String, trustingNewKey: Bool = false)
        async throws -> Person
    {
        guard let keyring = try await database.keyring(trip) else {
            throw Refusal(description: "this device has no trip \(trip.short)")
        }
        guard try await database.isOnServer(trip) else {
            throw Refusal(description: "the trip is not on the server yet; run 'quire sync' first, then share it")
        }
        try await keyPair()
        let published = try await api.publicKey(of: invitee)
        let person = try await checked(published.username, role: role, publicKey: published.publicKey)
        if case .changed = person.key {
            guard trustingNewKey else {
                throw Refusal(
                    description:
                        "\(published.username)'s key changed since this device first saw it (now \(person.fingerprint)); "
                        + "compare it with them, then share again with --trust-new-key",
                    keyChanged: .keyChanged(username: published.username, fingerprint: person.fingerprint))
            }
            try await database.trustKey(published.publicKey, of: published.username)
        }
        let sealed = try SharingKeyWrapping.sealTripKey(
            keyring.current, trip: trip, epoch: keyring.epoch, for: published.username, publicKey: published.publicKey)
        _ = try await api.invite(
            TripInviteRequestDTO(
                username: published.username, role: role, sealedKey: sealed,
                keyEpoch: TripKeyEpoch.shown(keyring.epoch)),
            to: trip)
        return person
    }

    /// The trip's members, each with their key's fingerprint and how it compares to the one
    /// this device saw first.
    public func members(of trip: TripID) async throws -> [Person] {
        var people: [Person] = []
        for member in try await api.members(of: trip) {
            people.append(try await checked(member.username, role: member.role, publicKey: member.publicKey))
        }
        return people
    }

    public func setRole(_ role: String, of member: String, in trip: TripID) async throws {
        try await api.setRole(role, of: member.lowercased(), in: trip)
    }

    /// Removes `member` from the trip and rotates the trip's key in the same request
    /// (``rotateKey(of:removing:trustingNewKeys:)``): its next sync is refused, its device deletes
    /// the trip, and nothing written from now on opens with the keys it had. Returns the new epoch.
    @discardableResult
    public func remove(_ member: String, from trip: TripID, trustingNewKeys: Bool = false) async throws -> Int {
        try await rotateKey(of: trip, removing: [member], trustingNewKeys: trustingNewKeys)
    }

    /// A new invite link to `trip` for `role`, usable `uses` times for `hours` hours. Its text
    /// holds the secret: whoever has it can join, so send it over a channel you trust.
    public func inviteLink(to trip: TripID, role: String, hours: Int? = nil, uses: Int? = nil) async throws
        -> InviteLink
    {
        guard let keyring = try await database.keyring(trip) else {
            throw Refusal(description: "this device has no trip \(trip.short)")
        }
        guard try await database.isOnServer(trip) else {
            throw Refusal(description: "the trip is not on the server yet; run 'quire sync' first")
        }
        // The server makes the id; the secret is made here and never sent.
        var link = InviteLink(server: server, id: "")
        let made = try await api.createLink(
            CreateTripLinkRequestDTO(
                role: role, sealedKey: try link.seal(keyring.current, trip: trip), tokenHash: try link.tokenHash(),
                expiresInHours: hours, maxUses: uses, keyEpoch: TripKeyEpoch.shown(keyring.epoch)),
            for: trip)
        link.id = made.id
        return link
    }

    /// Revokes the link (its text, or its id) of `trip`.
    public func revokeLink(_ text: String, of trip: TripID) async throws {
        try await api.revokeLink(InviteLink(text)?.id ?? text.lowercased(), of: trip)
    }

    /// Joins the trip of `link`. Returns the trip and the role joined with.
    public func join(_ link: InviteLink) async throws -> (trip: TripID, role: String) {
        // Published first, so a later rotation of the trip's key can reach this account.
        try await keyPair()
        let opened = try await api.openLink(link.id, token: try link.token())
        guard let trip = TripID(opened.trip) else { throw Refusal(description: "the link names no trip") }
        let tripKey = try link.open(opened.sealedKey, trip: trip)
        let entry = try await api.joinLink(
            link.id, token: try link.token(), wrappedKey: try tripKeys.wrap(tripKey, trip: trip))
        try await database.forgetDeparture(trip)
        return (trip, entry.role)
    }

    // MARK: - Invitees

    public func invitations() async throws -> [Invitation] {
        var invitations: [Invitation] = []
        for invite in try await api.invites() {
            guard let trip = TripID(invite.trip) else { continue }
            invitations.append(
                Invitation(
                    id: invite.id, trip: trip,
                    from: try await checked(invite.from, role: "owner", publicKey: invite.fromPublicKey)))
        }
        return invitations
    }

    /// Joins the trip of invitation `id` (a prefix of it is enough), keeping its key wrapped with
    /// this account's notes key. Returns the trip and the role joined with.
    public func accept(_ id: String) async throws -> (trip: TripID, role: String) {
        let invite = try await invitation(id)
        guard let trip = TripID(invite.trip) else { throw Refusal(description: "the invitation names no trip") }
        let tripKey = try SharingKeyWrapping.openTripKey(
            invite.sealedKey, trip: trip, epoch: invite.keyEpoch ?? TripKeyEpoch.first, for: username,
            with: try await keyPair())
        let entry = try await api.accept(invite.id, wrappedKey: try tripKeys.wrap(tripKey, trip: trip))
        try await database.forgetDeparture(trip)
        return (trip, entry.role)
    }

    public func decline(_ id: String) async throws {
        try await api.decline(try await invitation(id).id)
    }

    /// Leaves `trip`, then deletes this device's copy. Returns what was lost with it.
    @discardableResult
    public func leave(_ trip: TripID) async throws -> TripsDatabase.Removal? {
        try await api.remove(username, from: trip)
        return try await database.removeLocalCopy(leaving: trip, as: username)
    }

    public func leaveAgain(_ trip: TripID) async throws {
        try await api.remove(username, from: trip)
    }

    // MARK: - Helpers

    /// The fingerprint of a base64 public key, as people compare them; "?" for what is not one.
    public static func fingerprint(_ publicKey: String) -> String {
        Data(base64Encoded: publicKey).map(KeyFingerprint.of) ?? "?"
    }

    private func invitation(_ id: String) async throws -> TripInviteDTO {
        let matching = try await api.invites().filter { $0.id.hasPrefix(id.lowercased()) }
        guard matching.count == 1, let invite = matching.first else {
            throw Refusal(
                description: matching.isEmpty
                    ? "no invitation \(id) is waiting for this account; see 'quire trip invites'"
                    : "\(id) names \(matching.count) invitations; give more of the id")
        }
        return invite
    }

    private func checked(_ username: String, role: String, publicKey: String) async throws -> Person {
        guard let bytes = Data(base64Encoded: publicKey), !bytes.isEmpty else {
            return Person(username: username, role: role, fingerprint: "", key: .new)
        }
        let check = try await database.checkKey(publicKey, of: username)
        return Person(username: username, role: role, fingerprint: KeyFingerprint.of(bytes), key: check)
    }
}
