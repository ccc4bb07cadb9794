import Foundation
import QuireTrips
import QuireWire

/// The trip endpoints of API v1 (seed 002 §2). Returns DTOs; throws ``NotesAPIError`` by what the
/// engine should do (transient, unreachable, unauthorized, cursor expired, refused). Cancelling
/// the caller cancels the request.
public protocol TripsAPI: Sendable {
    /// One page of the account's trips feed after `cursor` (nil: every trip it belongs to).
    /// `wait` > 0 holds the request until a trip changes or that many seconds pass.
    func tripsFeed(since cursor: Cursor?, limit: Int, wait: Int) async throws -> TripsFeedPageDTO
    /// `PUT /v1/trips/{id}`: creates the trip, owned by this account, with its wrapped key. Doing
    /// it again is accepted; a trip another account holds is refused (409 `trip_exists`).
    func createTrip(_ trip: TripID, wrappedKey: String) async throws
    /// Every live field of the trip and the cursor that continues after them.
    func snapshot(of trip: TripID) async throws -> TripSnapshotDTO
    /// The trip's fields written after `cursor` (nil: from the beginning), in revision order;
    /// `.cursorExpired` when the trip's log no longer reaches back to the cursor. `known`: the
    /// positions this device's acknowledged requests left the trip at that no pull has checked
    /// (``TripOpsResponseDTO/position``, at most ``WireRoutes/maxKnownPositions``); a server whose
    /// history lacks one of them or the cursor answers 400 `invalid_cursor` (restored from a
    /// backup).
    func changes(of trip: TripID, since cursor: Cursor?, known: [Cursor], limit: Int) async throws
        -> TripChangesPageDTO
    /// `POST /v1/trips/{id}/ops`: one result per op, in order. A repeated `opId` gets its first
    /// answer and changes nothing. `cursor` and `known` name the history the ops' bases come
    /// from (the trip's cursor and the unchecked positions); a server restored to before it
    /// answers 400 `invalid_cursor` and applies nothing.
    func send(_ request: TripOpsRequestDTO, to trip: TripID, cursor: Cursor?, known: [Cursor]) async throws
        -> TripOpsResponseDTO
}

extension TripsAPI {
    /// ``send(_:to:cursor:known:)`` with no history to check.
    public func send(_ request: TripOpsRequestDTO, to trip: TripID) async throws -> TripOpsResponseDTO {
        try await send(request, to: trip, cursor: nil, known: [])
    }

    /// ``changes(of:since:known:limit:)`` with no position to check.
    public func changes(of trip: TripID, since cursor: Cursor?, limit: Int) async throws -> TripChangesPageDTO {
        try await changes(of: trip, since: cursor, known: [], limit: limit)
    }
}
