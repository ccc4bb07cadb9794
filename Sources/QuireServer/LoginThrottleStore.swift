import Foundation

/// Where ``LoginThrottle`` keeps its failure counters: in the server's database (both stores),
/// so every instance on one database throttles together and a restart does not reset an
/// attacker's delay, or in memory (``MemoryLoginThrottleStore``) for a store that keeps none.
public protocol LoginThrottleStore: Sendable {
    /// Reads the counters of `keys` and, when `decide` answers no wait (0 or less), counts one
    /// failure at `time` on each key, all in one transaction that no other admission of those
    /// keys interleaves with; returns `decide`'s answer.
    ///
    /// A key whose latest failure is at or before `forgetBefore` is passed as nil and starts again
    /// from one; the store may delete such keys at any time.
    func admitLoginAttempt(
        keys: [String], at time: Date, forgetBefore: Date,
        decide: @escaping @Sendable ([LoginFailures?]) -> TimeInterval
    ) async throws -> TimeInterval

    /// Forgets `forgetting`, and takes one failure back from `takingBackFrom` (forgetting it at
    /// none).
    func loginSucceeded(forgetting: String, takingBackFrom: String?) async throws
}

/// One throttle key's failures: how many, and when the latest was.
public struct LoginFailures: Sendable, Equatable {
    public var count: Int
    public var latest: Date

    public init(count: Int, latest: Date) {
        self.count = count
        self.latest = latest
    }
}
