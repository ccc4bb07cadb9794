import Foundation

/// Slows repeated failed sign-ins with a growing delay per (username, address) and per address,
/// never with a lock of a username for every address: an attacker's address is slowed, and the
/// owner signing in from another address is not.
///
/// Each key counts its failures. The first few are free; after that, each further attempt must
/// wait a delay after the key's latest failure that starts at ``Policy/baseDelay`` and doubles
/// with each failure, up to ``Policy/maxDelay``. A key with no failure for ``Policy/forgetAfter``
/// is forgotten (the counters decay). An attempt refused for its delay is not counted, so waiting
/// the delay out is always enough.
///
/// Every admitted attempt is counted as a failure the moment it is admitted, and taken back when
/// it succeeds, so parallel guesses cannot all slip past the check before any failure is
/// recorded. A success forgets the (username, address) key and takes its attempt back from the
/// address key (the address keeps its other failures).
///
/// The counters live in a ``LoginThrottleStore``: the server's database on both stores, so
/// several instances behind a load balancer throttle an attacker as one and a restart keeps his
/// delay; in memory when none is given.
public final class LoginThrottle: Sendable {
    /// How many failures are free and how the delay after them grows.
    public struct Policy: Sendable, Equatable {
        /// Failures of one username from one address before the first delay.
        public var pairFreeFailures: Int
        /// Failures from one address, every username together, before its first delay. Higher
        /// than the pair's: many people may share one address (NAT, offices).
        public var addressFreeFailures: Int
        /// The first delay, in seconds; each further failure doubles it.
        public var baseDelay: TimeInterval
        /// The longest delay, in seconds.
        public var maxDelay: TimeInterval
        /// A key with no failure for this many seconds is forgotten.
        public var forgetAfter: TimeInterval

        public init(
            pairFreeFailures: Int = 3, addressFreeFailures: Int = 20, baseDelay: TimeInterval = 1,
            maxDelay: TimeInterval = 900, forgetAfter: TimeInterval = 3600
        ) {
            self.pairFreeFailures = max(0, pairFreeFailures)
            self.addressFreeFailures = max(0, addressFreeFailures)
            self.baseDelay = max(0.001, baseDelay)
            self.maxDelay = max(self.baseDelay, maxDelay)
            self.forgetAfter = max(self.maxDelay, forgetAfter)
        }

        /// The wait after the latest of `failures` failures of a key with `free` free ones.
        func delay(afterFailures failures: Int, free: Int) -> TimeInterval {
            guard failures >= free else { return 0 }
            let doublings = min(failures - free, 62)
            return min(maxDelay, baseDelay * pow(2, Double(doublings)))
        }
    }

    /// The answer to ``admit(username:address:)``.
    public enum Admission: Sendable, Equatable {
        /// Go ahead; report a success with ``succeeded(_:)``. A failure needs no report.
        case allowed(Attempt)
        /// Refuse without checking the password; try again after this many whole seconds (≥ 1).
        case locked(retryAfter: Int)
    }

    /// One admitted attempt, to take back if it succeeds.
    public struct Attempt: Sendable, Equatable {
        let username: String
        let address: String
        let at: Date
    }

    private let policy: Policy
    private let store: any LoginThrottleStore
    private let now: @Sendable () -> Date

    public init(
        policy: Policy = Policy(), store: any LoginThrottleStore = MemoryLoginThrottleStore(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.policy = policy
        self.store = store
        self.now = now
    }

    /// Admits a sign-in attempt for `username` (already normalised) from `address`, counting it
    /// as a failure until ``succeeded(_:)``, or says how long the caller must wait. An empty
    /// address (unknown peer) has no address key; its pair key then slows the username for
    /// every unknown peer alike. Throws what the store throws.
    public func admit(username: String, address: String) async throws -> Admission {
        let time = now()
        var keys = [Self.pairKey(username: username, address: address)]
        var free = [policy.pairFreeFailures]
        if !address.isEmpty {
            keys.append(Self.addressKey(address))
            free.append(policy.addressFreeFailures)
        }
        let policy = self.policy
        let freeFailures = free
        let wait = try await store.admitLoginAttempt(
            keys: keys, at: time, forgetBefore: time.addingTimeInterval(-policy.forgetAfter)
        ) { counters in
            var wait: TimeInterval = 0
            for (counted, free) in zip(counters, freeFailures) {
                guard let counted else { continue }
                let delay = policy.delay(afterFailures: counted.count, free: free)
                wait = max(wait, counted.latest.addingTimeInterval(delay).timeIntervalSince(time))
            }
            return wait
        }
        if wait > 0 { return .locked(retryAfter: max(1, Int(wait.rounded(.up)))) }
        return .allowed(Attempt(username: username, address: address, at: time))
    }

    /// The attempt proved the password: forgets the (username, address) key and takes back the
    /// attempt's count on its address. Throws what the store throws.
    public func succeeded(_ attempt: Attempt) async throws {
        try await store.loginSucceeded(
            forgetting: Self.pairKey(username: attempt.username, address: attempt.address),
            takingBackFrom: attempt.address.isEmpty ? nil : Self.addressKey(attempt.address))
    }

    // MARK: - Keys

    /// The keys as stored: a kind letter, then the parts, split by a newline (which neither a
    /// normalised username nor an address holds).
    static func pairKey(username: String, address: String) -> String { "p\n\(username)\n\(address)" }

    static func addressKey(_ address: String) -> String { "a\n\(address)" }
}
