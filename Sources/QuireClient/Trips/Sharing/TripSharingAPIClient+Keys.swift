import Foundation
import QuireTrips
import QuireWire

extension TripSharingAPIClient: TripKeysAPI {
    public func tripKeys(of trip: TripID) async throws -> TripKeysDTO {
        try decoded(TripKeysDTO.self, try await call("GET", WireRoutes.tripKeys(trip.description)))
    }

    public func rotateKey(_ request: RotateTripKeyRequestDTO, of trip: TripID) async throws -> TripKeyRotatedDTO {
        try decoded(TripKeyRotatedDTO.self, try await call("POST", WireRoutes.tripKeys(trip.description), request))
    }
}
