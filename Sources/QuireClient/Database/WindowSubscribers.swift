import Foundation

/// The open streams of the list's first rows, each with its own window size.
///
/// Owned by the database actor, so it needs no lock. Publishing reads each distinct window once
/// (every list screen of a device usually asks for the same size) and yields it to the
/// subscribers of that size; a subscriber whose stream has ended is dropped on the spot.
struct WindowSubscribers<Value: Sendable>: Sendable {
    private var subscribers: [UUID: (size: Int, continuation: AsyncStream<Value>.Continuation)] = [:]

    var isEmpty: Bool { subscribers.isEmpty }

    /// Replays `current` to a new subscriber and keeps it, unless its stream has already ended.
    mutating func register(
        _ id: UUID, size: Int, _ continuation: AsyncStream<Value>.Continuation, current: Value
    ) {
        if case .terminated = continuation.yield(current) { return }
        subscribers[id] = (size, continuation)
    }

    mutating func remove(_ id: UUID) {
        subscribers[id] = nil
    }

    /// Ends every stream (the database is going away, or can no longer read what they show).
    mutating func finishAll() {
        for subscriber in subscribers.values { subscriber.continuation.finish() }
        subscribers = [:]
    }

    /// Yields to every subscriber the value `read` gives for its window size, reading each size
    /// once. If a read throws, every stream finishes: a stale window must not look current.
    mutating func publish(_ read: (Int) throws -> Value) {
        var values: [Int: Value] = [:]
        do {
            for size in Set(subscribers.values.map(\.size)) { values[size] = try read(size) }
        } catch {
            finishAll()
            return
        }
        for (id, subscriber) in subscribers {
            guard let value = values[subscriber.size] else { continue }
            if case .terminated = subscriber.continuation.yield(value) { subscribers[id] = nil }
        }
    }
}
