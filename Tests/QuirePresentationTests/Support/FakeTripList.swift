import Foundation
import QuireTrips

/// A `TripsRepository` for the list alone: its list stream replays the current list, then each
/// `set`. A single trip is never there.
///
/// `@unchecked Sendable`: every stored property is read and written only while holding `lock`.
final class FakeTripList: TripsRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var current: [TripSummary]
    private var subscribers: [UUID: AsyncStream<[TripSummary]>.Continuation] = [:]

    init(_ list: [TripSummary]) {
        current = list
    }

    func set(_ list: [TripSummary]) {
        lock.withLock {
            current = list
            for subscriber in subscribers.values { subscriber.yield(list) }
        }
    }

    func tripList() -> AsyncStream<[TripSummary]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [TripSummary].self)
        let key = UUID()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.subscribers.removeValue(forKey: key) }
        }
        lock.withLock {
            subscribers[key] = continuation
            continuation.yield(current)
        }
        return stream
    }

    func tripUpdates(_ trip: TripID) -> AsyncStream<TripRecord?> {
        AsyncStream { $0.yield(nil) }
    }

    func resolveConflict(trip: TripID, item: ItemID?, field: TripField, keep choice: TripConflictChoice) async throws {}

    func restoreItem(_ item: ItemID) async throws {}
}
