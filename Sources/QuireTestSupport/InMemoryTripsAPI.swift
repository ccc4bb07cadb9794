import Foundation
import QuireClient
import QuireTrips
import QuireWire

/// ``TripsAPI`` straight into an ``InMemoryTripsServer`` as one account: the in-memory twin of
/// the API, with no HTTP between. Throws the ``NotesAPIError`` the live client would.
public struct InMemoryTripsAPI: TripsAPI {
    public let server: InMemoryTripsServer
    public let account: String

    public init(server: InMemoryTripsServer, account: String) {
        self.server = server
        self.account = account
    }

    public func tripsFeed(since cursor: Cursor?, limit: Int, wait: Int) async throws -> TripsFeedPageDTO {
        try await server.tripsFeed(account: account, since: cursor?.rawValue, limit: limit, wait: wait)
    }

    public func createTrip(_ trip: TripID, wrappedKey: String) async throws {
        _ = try await server.createTrip(account: account, id: trip.description, wrappedKey: wrappedKey)
    }

    public func snapshot(of trip: TripID) async throws -> TripSnapshotDTO {
        try await server.snapshot(account: account, id: trip.description)
    }

    /// The twin keeps no backups to restore, and gives out no positions: `known` is never set.
    public func changes(of trip: TripID, since cursor: Cursor?, known: [Cursor], limit: Int) async throws
        -> TripChangesPageDTO
    {
        try await server.changes(account: account, id: trip.description, cursor: cursor?.rawValue, limit: limit)
    }

    /// The twin keeps no backups to restore: `cursor` and `known` are not checked.
    public func send(_ request: TripOpsRequestDTO, to trip: TripID, cursor: Cursor?, known: [Cursor]) async throws
        -> TripOpsResponseDTO
    {
        try await server.ops(account: account, id: trip.description, request: request)
    }
}
