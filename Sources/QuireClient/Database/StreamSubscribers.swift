import Foundation

/// The open streams of one kind of value the database publishes, and the last value they got.
///
/// Owned by the database actor, so it needs no lock. Publishing computes a value once and yields it
/// to every subscriber; a subscriber whose stream has ended is dropped on the spot.
struct StreamSubscribers<Value: Sendable & Equatable>: Sendable {
    private var continuations: [UUID: AsyncStream<Value>.Continuation] = [:]
    /// The value every subscriber last got, kept only when deduplicating (to skip an equal one).
    private var lastValue: Value?
    /// Whether an unchanged value is skipped (counts) or re-sent (the list, after each commit).
    let deduplicates: Bool

    init(deduplicates: Bool) {
        self.deduplicates = deduplicates
    }

    var isEmpty: Bool { continuations.isEmpty }
    var count: Int { continuations.count }

    /// Replays `current` to a new subscriber and keeps it, unless its stream has already ended.
    mutating func register(
        _ id: UUID, _ continuation: AsyncStream<Value>.Continuation, current: Value
    ) {
        if case .terminated = continuation.yield(current) { return }
        continuations[id] = continuation
        if deduplicates { lastValue = current }
    }

    mutating func remove(_ id: UUID) {
        continuations[id] = nil
    }

    /// Ends every stream (the database is going away, or can no longer read what they show).
    mutating func finishAll() {
        for continuation in continuations.values { continuation.finish() }
        continuations = [:]
        lastValue = nil
    }

    /// Yields `value` to every subscriber (unless deduplicating and equal to the last one).
    mutating func publish(_ value: Value) {
        if deduplicates {
            if value == lastValue { return }
            lastValue = value
        }
        for (id, continuation) in continuations {
            if case .terminated = continuation.yield(value) { continuations[id] = nil }
        }
    }
}
