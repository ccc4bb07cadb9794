import Foundation
import QuireTrips
import QuireWire

extension TripSharingAPIClient: TripLinkAPI {
    public func createLink(_ request: CreateTripLinkRequestDTO, for trip: TripID) async throws -> TripLinkDTO {
        try decoded(
            TripLinkDTO.self, try await call("POST", WireRoutes.tripLinks(trip.description), request), status: 201)
    }

    public func openLink(_ link: String, token: Data) async throws -> TripLinkDTO {
        let body = TripLinkJoinRequestDTO(token: token.base64EncodedString())
        return try decoded(TripLinkDTO.self, try await call("POST", WireRoutes.openLink(link), body))
    }

    public func joinLink(_ link: String, token: Data, wrappedKey: String) async throws -> TripEntryDTO {
        let body = TripLinkJoinRequestDTO(token: token.base64EncodedString(), wrappedKey: wrappedKey)
        return try decoded(TripEntryDTO.self, try await call("POST", WireRoutes.joinLink(link), body))
    }

    public func revokeLink(_ link: String, of trip: TripID) async throws {
        try expect(204, try await call("DELETE", WireRoutes.tripLink(trip.description, link)))
    }
}
