import Foundation

/// The simulation's time: starts at a fixed instant and moves only when the scheduler advances it,
/// so timestamps the product writes are the same on every run of a seed.
final class VirtualClock: @unchecked Sendable {
    // `seconds` is guarded by `lock`; the clock is read from the database and server actors.
    private let lock = NSLock()
    private var seconds: Double = 0
    private let origin = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// The current virtual instant.
    func now() -> Date {
        origin.addingTimeInterval(lock.withLock { seconds })
    }

    /// Moves time forward by `delta` seconds.
    func advance(by delta: Double = 1) {
        lock.withLock { seconds += delta }
    }
}
