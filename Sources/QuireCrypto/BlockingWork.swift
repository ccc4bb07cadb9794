import Foundation

/// Runs blocking work (PBKDF2 at hundreds of thousands of rounds, a blob read or write) on
/// threads of Quire's own instead of a Swift concurrency thread.
///
/// The concurrency pool has one thread per core; a quarter-second derivation on it stalls every
/// other task for that long (long-polls, saves, other requests). Dispatch's global queues are no
/// place for it either: on Linux they share that pool's threads (``BlockingThreadPool``). The
/// work cannot be cancelled once started.
public enum BlockingWork {
    /// Runs `work` on the shared pool (at most ``width`` at once; the rest wait their turn).
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            start { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Runs `work` that may wait for long (a lock another process holds) on a thread of its own,
    /// so it never holds one of the pool's.
    public static func wait<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    /// How many jobs run at once: CPU-bound hashing wants a thread a core, and a blob read that
    /// waits on the disk should not hold up the next.
    static let width = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)

    private static let pool = BlockingThreadPool(width: width)

    /// Starts `work` and returns at once.
    static func start(_ work: @escaping @Sendable () -> Void) {
        pool.start(work)
    }
}
