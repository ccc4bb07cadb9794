import Foundation
import QuireTrips

/// An in-memory `TripsRepository` for one trip: its stream replays the current trip, then each
/// `set`; it records the choices the view model makes and can fail them.
///
/// `@unchecked Sendable`: every stored property is read and written only while holding `lock`.
final class FakeTripsRepository: TripsRepository, @unchecked Sendable {
    enum Choice: Equatable {
        case resolve(item: ItemID?, field: TripField, keep: TripConflictChoice)
        case restore(ItemID)
    }

    struct Refused: Error, CustomStringConvertible {
        var description: String { "the disk is full" }
    }

    private let lock = NSLock()
    private var current: TripRecord?
    private var subscribers: [UUID: AsyncStream<TripRecord?>.Continuation] = [:]
    private var recorded: [Choice] = []
    private var failing = false
    private var subscriptionCount = 0

    init(_ trip: TripRecord?) {
        current = trip
    }

    var choices: [Choice] { lock.withLock { recorded } }
    var subscriptions: Int { lock.withLock { subscriptionCount } }

    func set(_ trip: TripRecord?) {
        lock.withLock {
            current = trip
            for subscriber in subscribers.values { subscriber.yield(trip) }
        }
    }

    /// Makes the next choices throw.
    func failChoices() { lock.withLock { failing = true } }

    /// Ends every open stream, as the database does when a read fails.
    func endStreams() {
        let ended = lock.withLock {
            let ended = subscribers.values
            subscribers = [:]
            return ended
        }
        for continuation in ended { continuation.finish() }
    }

    func tripList() -> AsyncStream<[TripSummary]> {
        AsyncStream { $0.finish() }
    }

    func tripUpdates(_ trip: TripID) -> AsyncStream<TripRecord?> {
        let (stream, continuation) = AsyncStream.makeStream(of: TripRecord?.self)
        let key = UUID()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.subscribers.removeValue(forKey: key) }
        }
        lock.withLock {
            subscriptionCount += 1
            subscribers[key] = continuation
            continuation.yield(current?.id == trip ? current : nil)
        }
        return stream
    }

    func resolveConflict(trip: TripID, item: ItemID?, field: TripField, keep choice: TripConflictChoice) async throws {
        try record(.resolve(item: item, field: field, keep: choice))
    }

    func restoreItem(_ item: ItemID) async throws {
        try record(.restore(item))
    }

    private func record(_ choice: Choice) throws {
        try lock.withLock {
            if failing { throw Refused() }
            recorded.append(choice)
        }
    }
}
