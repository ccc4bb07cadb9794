import Foundation
import QuireTrips
import QuireWire

/// ``TripSharingAPI`` over an ``HTTPTransport``, with the token handling every client of the
/// device shares (``AuthorizedTransport``).
public struct TripSharingAPIClient: TripSharingAPI {
    private let http: AuthorizedTransport
    private let timeout: TimeInterval

    public init(transport: HTTPTransport, tokens: AccessTokenProvider, timeout: TimeInterval = 30) {
        self.http = AuthorizedTransport(transport: transport, tokens: tokens)
        self.timeout = timeout
    }

    public func sharingKey() async throws -> SharingKeyDTO? {
        let response = try await call("GET", WireRoutes.sharingKey)
        if response.status == 404 { return nil }
        return try decoded(SharingKeyDTO.self, response)
    }

    public func publishSharingKey(_ key: SharingKeyDTO) async throws {
        try expect(204, try await call("PUT", WireRoutes.sharingKey, key))
    }

    public func publicKey(of username: String) async throws -> PublicSharingKeyDTO {
        try decoded(PublicSharingKeyDTO.self, try await call("GET", WireRoutes.sharingKey(of: username)))
    }

    public func invite(_ request: TripInviteRequestDTO, to trip: TripID) async throws -> TripInviteDTO {
        let response = try await call("POST", WireRoutes.tripInvites(trip.description), request)
        return try decoded(TripInviteDTO.self, response, status: 201)
    }

    public func invites() async throws -> [TripInviteDTO] {
        try decoded(TripInvitesDTO.self, try await call("GET", WireRoutes.invites)).invites
    }

    public func accept(_ invite: String, wrappedKey: String) async throws -> TripEntryDTO {
        let response = try await call(
            "POST", WireRoutes.acceptInvite(invite), AcceptInviteRequestDTO(wrappedKey: wrappedKey))
        return try decoded(TripEntryDTO.self, response)
    }

    public func decline(_ invite: String) async throws {
        try expect(204, try await call("POST", WireRoutes.declineInvite(invite)))
    }

    public func members(of trip: TripID) async throws -> [TripMemberDTO] {
        try decoded(TripMembersDTO.self, try await call("GET", WireRoutes.tripMembers(trip.description))).members
    }

    public func setRole(_ role: String, of username: String, in trip: TripID) async throws {
        let path = WireRoutes.tripMember(trip.description, username)
        try expect(204, try await call("PUT", path, TripRoleRequestDTO(role: role)))
    }

    public func remove(_ username: String, from trip: TripID) async throws {
        try expect(204, try await call("DELETE", WireRoutes.tripMember(trip.description, username)))
    }

    // MARK: - Requests

    func call(_ method: String, _ path: String) async throws -> TransportResponse {
        try await http.send(TransportRequest(method: method, path: path, timeout: timeout))
    }

    func call<T: Encodable>(_ method: String, _ path: String, _ body: T) async throws -> TransportResponse {
        try await http.send(
            TransportRequest(
                method: method, path: path, headers: ["Content-Type": "application/json"],
                body: WireJSON.encode(body), timeout: timeout))
    }

    func expect(_ status: Int, _ response: TransportResponse) throws {
        guard response.status == status else { throw AuthorizedTransport.failure(response) }
    }

    func decoded<T: Decodable>(_ type: T.Type, _ response: TransportResponse, status: Int = 200) throws -> T {
        try expect(status, response)
        return try AuthorizedTransport.decode(type, from: response)
    }
}
