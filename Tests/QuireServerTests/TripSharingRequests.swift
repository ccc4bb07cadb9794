import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Requests of the sharing routes for the tests. Keys are only the right sizes: the server never
/// opens them, so the tests need no crypto.
enum SharingValue {
    static func publicKey(_ seed: UInt8) -> String { Data(repeating: seed, count: 32).base64EncodedString() }
    static let wrappedPrivateKey = Data(repeating: 7, count: 60).base64EncodedString()
    static let sealedKey = Data(repeating: 9, count: 93).base64EncodedString()
}

extension ServerHarness {
    func sharingRequest<T: Encodable>(_ method: String, _ path: String, token: String, _ body: T) async -> HTTPResponse
    {
        await sharingRequest(method, path, token: token, body: WireJSON.encode(body))
    }

    func sharingRequest(_ method: String, _ path: String, token: String, body: Data = Data()) async -> HTTPResponse {
        await server.handle(
            HTTPRequest(method: method, path: path, headers: ["Authorization": "Bearer \(token)"], body: body))
    }

    /// A token for `username`, whose account has published a sharing key.
    func sharingToken(_ username: String, seed: UInt8) async throws -> String {
        let token = try await token(username)
        let put = await sharingRequest(
            "PUT", WireRoutes.sharingKey, token: token,
            SharingKeyDTO(publicKey: SharingValue.publicKey(seed), wrappedPrivateKey: SharingValue.wrappedPrivateKey))
        try #require(put.status == 204, "PUT sharing-key answered \(put.status): \(put.text)")
        return token
    }

    func inviteResponse(_ trip: String, _ username: String, role: String, token: String) async -> HTTPResponse {
        await sharingRequest(
            "POST", WireRoutes.tripInvites(trip), token: token,
            TripInviteRequestDTO(username: username, role: role, sealedKey: SharingValue.sealedKey))
    }

    func invites(token: String) async throws -> [TripInviteDTO] {
        let response = await sharingRequest("GET", WireRoutes.invites, token: token)
        try #require(response.status == 200, "GET invites answered \(response.status): \(response.text)")
        return try response.decoded(TripInvitesDTO.self).invites
    }

    func acceptResponse(_ invite: String, token: String, wrappedKey: String = TripValue.wrappedKey) async
        -> HTTPResponse
    {
        await sharingRequest(
            "POST", WireRoutes.acceptInvite(invite), token: token, AcceptInviteRequestDTO(wrappedKey: wrappedKey))
    }

    /// `owner` invites `username` (who must have a sharing key) with `role` and it accepts.
    func share(_ trip: String, with username: String, role: String, owner: String, token: String) async throws {
        let invited = await inviteResponse(trip, username, role: role, token: owner)
        try #require(invited.status == 201, "invite answered \(invited.status): \(invited.text)")
        let invite = try invited.decoded(TripInviteDTO.self)
        let accepted = await acceptResponse(invite.id, token: token)
        try #require(accepted.status == 200, "accept answered \(accepted.status): \(accepted.text)")
    }

    func members(_ trip: String, token: String) async throws -> [TripMemberDTO] {
        let response = await sharingRequest("GET", WireRoutes.tripMembers(trip), token: token)
        try #require(response.status == 200, "GET members answered \(response.status): \(response.text)")
        return try response.decoded(TripMembersDTO.self).members
    }

    func roleResponse(_ trip: String, _ username: String, _ role: String, token: String) async -> HTTPResponse {
        await sharingRequest("PUT", WireRoutes.tripMember(trip, username), token: token, TripRoleRequestDTO(role: role))
    }

    func removeResponse(_ trip: String, _ username: String, token: String) async -> HTTPResponse {
        await sharingRequest("DELETE", WireRoutes.tripMember(trip, username), token: token)
    }
}
