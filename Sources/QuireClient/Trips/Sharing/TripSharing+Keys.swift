import Foundation
import QuireCrypto
import QuireTrips
import QuireWire

/// Rotating a trip's key (issue 15): a removal makes a new random key, wraps it for the members
/// who stay and the pending invitations (sealed to their public keys, each checked against the key
/// this device first saw for them), and chains the old key under it, in one request that also
/// removes the members. Values written from then on are sealed with the new key, which the
/// removed member never receives.
extension TripSharing: TripKeySource {
    /// The most times a rotation is tried again when the trip's members changed meanwhile.
    static let rotationAttempts = 3

    public func openSealedKey(_ sealed: String, trip: TripID, epoch: Int) async throws -> SymmetricKey256 {
        try SharingKeyWrapping.openTripKey(sealed, trip: trip, epoch: epoch, for: username, with: try await keyPair())
    }

    public func keys(of trip: TripID) async throws -> TripKeysDTO {
        try await api.tripKeys(of: trip)
    }

    @discardableResult
    public func rotateKey(of trip: TripID, removing members: [String] = [], trustingNewKeys: Bool = false)
        async throws -> Int
    {
        let removing = members.map { $0.lowercased() }
        for attempt in 1...Self.rotationAttempts {
            guard let keyring = try await database.keyring(trip) else {
                throw Refusal(description: "this device has no trip \(trip.short)")
            }
            let plan = try await api.tripKeys(of: trip)
            guard plan.epoch == keyring.epoch else {
                throw Refusal(
                    description: "this device has not caught up with the trip's key (epoch \(keyring.epoch) here, "
                        + "\(plan.epoch) on the server); run 'quire sync', then try again")
            }
            let request = try await rotation(
                of: trip, from: keyring, plan: plan, removing: removing, trustingNewKeys: trustingNewKeys)
            do {
                let rotated = try await api.rotateKey(request.body, of: trip)
                try await database.adoptKey(trip, key: request.key, epoch: rotated.epoch, older: [:])
                if !removing.isEmpty {
                    let entries = plan.members.filter { removing.contains($0.username) }
                    try await database.rememberRemovals(
                        from: trip, of: entries.map { ($0.username, $0.entryRevision) })
                }
                return rotated.epoch
            } catch let error as NotesAPIError where error.code == "members_changed" && attempt < Self.rotationAttempts
            {
                continue
            }
        }
        throw Refusal(description: "the trip's members kept changing; try again")
    }

    /// The rotation request from `plan` and the new key it wraps.
    private func rotation(
        of trip: TripID, from keyring: TripKeyring, plan: TripKeysDTO, removing: [String], trustingNewKeys: Bool
    ) async throws -> (body: RotateTripKeyRequestDTO, key: SymmetricKey256) {
        for name in removing where !plan.members.contains(where: { $0.username == name }) {
            throw Refusal(description: "\(name) is not a member of this trip; see 'quire trip members'")
        }
        let key = SymmetricKey256.random()
        let epoch = plan.epoch + 1
        var members: [TripWrappedKeyDTO] = []
        for member in plan.members where !removing.contains(member.username) {
            let sealed = try await sealNewKey(
                key, trip: trip, epoch: epoch, for: member.username, publicKey: member.publicKey,
                trustingNewKeys: trustingNewKeys)
            members.append(TripWrappedKeyDTO(username: member.username, sealedKey: sealed))
        }
        var invites: [TripWrappedKeyDTO] = []
        for invite in plan.invites {
            let sealed = try await sealNewKey(
                key, trip: trip, epoch: epoch, for: invite.username, publicKey: invite.publicKey,
                trustingNewKeys: trustingNewKeys)
            invites.append(TripWrappedKeyDTO(username: invite.username, invite: invite.invite, sealedKey: sealed))
        }
        let body = RotateTripKeyRequestDTO(
            epoch: epoch,
            previousKey: try TripKeyChain.link(previous: keyring.current, new: key, trip: trip, epoch: epoch),
            members: members, invites: invites, remove: removing.isEmpty ? nil : removing,
            keyCheck: TripKeyCheck.text(of: key, trip: trip, epoch: epoch))
        return (body, key)
    }

    /// `key` sealed to `username`'s public key, once that key is checked: never to one that
    /// changed since this device first saw it unless the person took it (`trustingNewKeys`).
    private func sealNewKey(
        _ key: SymmetricKey256, trip: TripID, epoch: Int, for username: String, publicKey: String,
        trustingNewKeys: Bool
    ) async throws -> String {
        guard Data(base64Encoded: publicKey)?.isEmpty == false else {
            throw Refusal(
                description: "\(username) has no sharing key yet, so the trip's new key cannot reach them; "
                    + "ask them to run 'quire trip invites' once, then try again")
        }
        if username != self.username, case .changed = try await database.checkKey(publicKey, of: username) {
            guard trustingNewKeys else {
                throw Refusal(
                    description: "\(username)'s key changed since this device first saw it (now "
                        + "\(Self.fingerprint(publicKey))); compare it with them, then try again with --trust-new-key",
                    keyChanged: .keyChanged(username: username, fingerprint: Self.fingerprint(publicKey)))
            }
            try await database.trustKey(publicKey, of: username)
        }
        return try SharingKeyWrapping.sealTripKey(key, trip: trip, epoch: epoch, for: username, publicKey: publicKey)
    }
}
