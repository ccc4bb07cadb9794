import Foundation
import QuireWire

/// The checks of the sharing routes (issue 15). Pure: no storage, no clock.
extension RequestValidation {
    /// An X25519 public key: base64 of exactly 32 bytes.
    static let publicKeyBytes = 32
    /// A trip key sealed to a public key: version, ephemeral key, nonce, key and tag (93 bytes),
    /// with room for a later construction.
    static let sealedKeyBytes = 61...1024

    /// A ``SharingKeyDTO``: `publicKey` base64 of 32 bytes, `wrappedPrivateKey` a sealed key.
    static func sharingKey(_ body: Data) throws(APIError) -> SharingKeyDTO {
        struct Loose: Decodable {
            var publicKey: String?
            var wrappedPrivateKey: String?
        }
        let loose = try object(Loose.self, body, example: #"{"publicKey": "…", "wrappedPrivateKey": "…"}"#)
        let publicKey = try publicKey(loose.publicKey)
        _ = try wrappedKey(loose.wrappedPrivateKey, "wrappedPrivateKey")
        return SharingKeyDTO(publicKey: publicKey, wrappedPrivateKey: loose.wrappedPrivateKey ?? "")
    }

    static func publicKey(_ text: String?) throws(APIError) -> String {
        guard let text, Data(base64Encoded: text)?.count == publicKeyBytes else {
            throw .invalidRequest("'publicKey' is required: base64 of the \(publicKeyBytes)-byte X25519 public key.")
        }
        return text
    }

    /// A ``TripInviteRequestDTO``: a valid username, `role` editor or viewer, and a sealed key.
    static func tripInvite(_ body: Data) throws(APIError) -> TripInviteRequestDTO {
        struct Loose: Decodable {
            var username: String?
            var role: String?
            var sealedKey: String?
            var keyEpoch: Int?
        }
        let loose = try object(
            Loose.self, body, example: #"{"username": "ada", "role": "editor", "sealedKey": "…", "keyEpoch": 1}"#)
        let username = try username(loose.username)
        guard let role = loose.role, role == TripRole.editor.rawValue || role == TripRole.viewer.rawValue else {
            throw .invalidRequest("'role' is required: editor or viewer (make an owner with PUT …/members/{username}).")
        }
        guard let sealed = loose.sealedKey, let bytes = Data(base64Encoded: sealed),
            sealedKeyBytes.contains(bytes.count)
        else {
            throw .invalidRequest(
                "'sealedKey' is required: base64 of the trip key sealed to the invitee's public key, "
                    + "\(sealedKeyBytes.lowerBound) to \(sealedKeyBytes.upperBound) bytes.")
        }
        return TripInviteRequestDTO(
            username: username.value, role: role, sealedKey: sealed, keyEpoch: try keyEpoch(loose.keyEpoch))
    }

    /// An ``AcceptInviteRequestDTO``: the trip key wrapped with the accepting account's notes key.
    static func acceptInvite(_ body: Data) throws(APIError) -> AcceptInviteRequestDTO {
        struct Loose: Decodable { var wrappedKey: String? }
        let loose = try object(Loose.self, body, example: #"{"wrappedKey": "…"}"#)
        _ = try wrappedKey(loose.wrappedKey, "wrappedKey")
        return AcceptInviteRequestDTO(wrappedKey: loose.wrappedKey ?? "")
    }

    /// A ``TripRoleRequestDTO``: `role` owner, editor or viewer.
    static func tripRole(_ body: Data) throws(APIError) -> TripRole {
        struct Loose: Decodable { var role: String? }
        let loose = try object(Loose.self, body, example: #"{"role": "viewer"}"#)
        guard let raw = loose.role, let role = TripRole(rawValue: raw) else {
            throw .invalidRequest("'role' is required: owner, editor or viewer.")
        }
        return role
    }

    /// An invitation id from the path: a lowercase UUID.
    static func inviteID(_ raw: String) throws(APIError) -> String {
        guard isLowercaseUUID(raw) else {
            throw .invalidRequest(
                "The invitation id in the path must be a lowercase UUID, as GET /v1/invites lists it.")
        }
        return raw
    }
}

/// The checks of the invite-link routes.
extension RequestValidation {
    static let linkHours = 1...720
    static let linkUses = 1...100

    /// A ``CreateTripLinkRequestDTO``: role editor or viewer, a sealed key, 64 hex digits of
    /// token hash, and optional hours (1 to 720) and uses (1 to 100).
    static func createTripLink(_ body: Data) throws(APIError) -> CreateTripLinkRequestDTO {
        struct Loose: Decodable {
            var role: String?
            var sealedKey: String?
            var tokenHash: String?
            var expiresInHours: Int?
            var maxUses: Int?
            var keyEpoch: Int?
        }
        let loose = try object(
            Loose.self, body,
            example:
                #"{"role": "viewer", "sealedKey": "…", "tokenHash": "<64 hex>", "expiresInHours": 168, "maxUses": 1}"#)
        guard let role = loose.role, role == TripRole.editor.rawValue || role == TripRole.viewer.rawValue else {
            throw .invalidRequest("'role' is required: editor or viewer.")
        }
        _ = try wrappedKey(loose.sealedKey, "sealedKey")
        guard let hash = loose.tokenHash, hash.count == 64, hash.allSatisfy({ "0123456789abcdef".contains($0) }) else {
            throw .invalidRequest("'tokenHash' is required: 64 lowercase hex digits (SHA-256 of the join token).")
        }
        if let hours = loose.expiresInHours, !linkHours.contains(hours) {
            throw .invalidRequest("'expiresInHours' must be \(linkHours.lowerBound) to \(linkHours.upperBound).")
        }
        if let uses = loose.maxUses, !linkUses.contains(uses) {
            throw .invalidRequest("'maxUses' must be \(linkUses.lowerBound) to \(linkUses.upperBound).")
        }
        return CreateTripLinkRequestDTO(
            role: role, sealedKey: loose.sealedKey ?? "", tokenHash: hash, expiresInHours: loose.expiresInHours,
            maxUses: loose.maxUses, keyEpoch: try keyEpoch(loose.keyEpoch))
    }

    /// A ``TripLinkJoinRequestDTO``: `token` base64 of 32 bytes, and to join a wrapped key.
    static func useTripLink(_ body: Data, joining: Bool) throws(APIError) -> (token: Data, wrappedKey: String?) {
        struct Loose: Decodable {
            var token: String?
            var wrappedKey: String?
        }
        let loose = try object(Loose.self, body, example: #"{"token": "…", "wrappedKey": "…"}"#)
        guard let text = loose.token, let token = Data(base64Encoded: text), token.count == 32 else {
            throw .invalidRequest("'token' is required: base64 of the 32-byte join token from the link's secret.")
        }
        if joining { _ = try wrappedKey(loose.wrappedKey, "wrappedKey") }
        return (token, loose.wrappedKey)
    }

    static func linkID(_ raw: String) throws(APIError) -> String {
        guard isLowercaseUUID(raw) else {
            throw .invalidRequest("The link id in the path must be a lowercase UUID, as the invite link has it.")
        }
        return raw
    }
}
