import Foundation
import QuireTrips

/// A `TripsRepository` for the list alone: its list stream replays the current list, then each
/// `set`. A single trip is never there.
final class FakeTripList: TripsRepository {
    private let streams: ReplayingStreams<[TripSummary]>

    init(_ list: [TripSummary]) {
        streams = ReplayingStreams(list)
    }

    func set(_ list: [TripSummary]) {
        streams.set(list)
    }

    func tripList() -> AsyncStream<[TripSummary]> {
        streams.stream()
    }

    func tripUpdates(_ trip: TripID) -> AsyncStream<TripRecord?> {
        AsyncStream { $0.yield(nil) }
    }

    func resolveConflict(trip: TripID, item: ItemID?, field: TripField, keep choice: TripConflictChoice) async throws {}

    func restoreItem(_ item: ItemID) async throws {}
}
