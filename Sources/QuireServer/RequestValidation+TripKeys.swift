import Foundation
import QuireWire

/// The checks of a trip's key rotation (issue 15). Pure: no storage, no clock.
extension RequestValidation {
    /// The most members or invitations one rotation wraps the new key for, and removes.
    static let maxRotationEntries = 1_000
    /// A trip key sealed with another (AES-GCM combined form of 32 bytes): 60 bytes.
    static let chainedKeyBytes = 60...1024

    /// An optional key epoch of a body: absent, or 1 to ``TripKeyEpoch/maximum``.
    static func keyEpoch(_ epoch: Int?) throws(APIError) -> Int? {
        guard let epoch else { return nil }
        guard (TripKeyEpoch.first...TripKeyEpoch.maximum).contains(epoch) else {
            throw .invalidRequest(
                "'keyEpoch' must be the epoch of the key sealed, \(TripKeyEpoch.first) to \(TripKeyEpoch.maximum) "
                    + "(the keyEpoch of your trips feed entry; absent means 1).")
        }
        return epoch
    }

    /// A ``RotateTripKeyRequestDTO``: `epoch` 2 to ``TripKeyEpoch/maximum``, `previousKey` the old
    /// key sealed with the new, each member by a valid username once, each invitation by its id
    /// once, each with a sealed key, and `remove` valid usernames.
    static func rotateTripKey(_ body: Data) throws(APIError) -> RotateTripKeyRequestDTO {
        struct Entry: Decodable {
            var username: String?
            var invite: String?
            var sealedKey: String?
        }
        struct Loose: Decodable {
            var epoch: Int?
            var previousKey: String?
            var members: [Entry]?
            var invites: [Entry]?
            var remove: [String]?
            var keyCheck: String?
        }
        let loose = try object(
            Loose.self, body,
            example:
                #"{"epoch": 2, "previousKey": "…", "members": [{"username": "ada", "sealedKey": "…"}], "#
                + #""invites": [{"username": "bo", "invite": "<uuid>", "sealedKey": "…"}], "remove": ["cy"]}"#)
        guard let epoch = loose.epoch, (2...TripKeyEpoch.maximum).contains(epoch) else {
            throw .invalidRequest(
                "'epoch' is required: the trip's current key epoch plus one (2 to \(TripKeyEpoch.maximum)).")
        }
        guard let previous = loose.previousKey, let bytes = Data(base64Encoded: previous),
            chainedKeyBytes.contains(bytes.count)
        else {
            throw .invalidRequest(
                "'previousKey' is required: base64 of the previous key sealed with the new one, "
                    + "\(chainedKeyBytes.lowerBound) to \(chainedKeyBytes.upperBound) bytes.")
        }
        let members = try wrappedKeys(loose.members ?? [], "members", invites: false) {
            ($0.username, $0.invite, $0.sealedKey)
        }
        let invites = try wrappedKeys(loose.invites ?? [], "invites", invites: true) {
            ($0.username, $0.invite, $0.sealedKey)
        }
        guard !members.isEmpty else {
            throw .invalidRequest("'members' must wrap the new key for every member left, you included.")
        }
        let remove = loose.remove ?? []
        guard remove.count <= maxRotationEntries else {
            throw .invalidRequest("'remove' names at most \(maxRotationEntries) members.")
        }
        var removed: [String] = []
        for name in remove {
            let username = try username(name).value
            guard !removed.contains(username) else {
                throw .invalidRequest("'remove' names \(username) twice.")
            }
            removed.append(username)
        }
        return RotateTripKeyRequestDTO(
            epoch: epoch, previousKey: previous, members: members, invites: invites,
            remove: removed.isEmpty ? nil : removed, keyCheck: try keyCheck(loose.keyCheck))
    }

    private static func wrappedKeys<Entry>(
        _ entries: [Entry], _ name: String, invites: Bool, _ parts: (Entry) -> (String?, String?, String?)
    ) throws(APIError) -> [TripWrappedKeyDTO] {
        guard entries.count <= maxRotationEntries else {
            throw .invalidRequest("'\(name)' holds at most \(maxRotationEntries) entries.")
        }
        var keys: [TripWrappedKeyDTO] = []
        for entry in entries {
            let (rawUsername, rawInvite, sealed) = parts(entry)
            let username = try username(rawUsername).value
            var invite: String?
            if invites {
                guard let raw = rawInvite, isLowercaseUUID(raw) else {
                    throw .invalidRequest("Each of '\(name)' needs 'invite': the invitation's id, a lowercase UUID.")
                }
                invite = raw
            } else if rawInvite != nil {
                throw .invalidRequest("'members' entries have no 'invite'; put invitations in 'invites'.")
            }
            guard let sealed, let bytes = Data(base64Encoded: sealed), sealedKeyBytes.contains(bytes.count) else {
                throw .invalidRequest(
                    "Each of '\(name)' needs 'sealedKey': base64 of the new key sealed to their public key, "
                        + "\(sealedKeyBytes.lowerBound) to \(sealedKeyBytes.upperBound) bytes.")
            }
            guard !keys.contains(where: { $0.username == username && $0.invite == invite }) else {
                throw .invalidRequest("'\(name)' names \(username) twice.")
            }
            keys.append(TripWrappedKeyDTO(username: username, invite: invite, sealedKey: sealed))
        }
        return keys
    }
}
