import Dispatch

/// Runs slow, CPU-bound work (PBKDF2 at hundreds of thousands of rounds) on a Dispatch thread
/// instead of a Swift concurrency thread.
///
/// The concurrency pool has one thread per core; a quarter-second derivation on it stalls every
/// other task for that long (long-polls, saves, other requests). Dispatch's global queue grows
/// threads for blocking work, so the pool stays free. The work cannot be cancelled once started.
public enum BlockingWork {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
