import Foundation
import QuireTrips
import QuireWire

/// The invite-link routes (issue 15) as the device calls them.
public protocol TripLinkAPI: Sendable {
    func createLink(_ request: CreateTripLinkRequestDTO, for trip: TripID) async throws -> TripLinkDTO
    func openLink(_ link: String, token: Data) async throws -> TripLinkDTO
    func joinLink(_ link: String, token: Data, wrappedKey: String) async throws -> TripEntryDTO
    func revokeLink(_ link: String, of trip: TripID) async throws
}
