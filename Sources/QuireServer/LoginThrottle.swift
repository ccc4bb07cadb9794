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
/// The state lives in this actor's memory: it resets when the process restarts, and several
/// server instances behind a load balancer would each keep their own (an attacker spread over
/// them gets that many times the free attempts). Moving it to the database is the fix when that
/// matters.
public actor LoginThrottle {
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

    private enum Key: Hashable {
        case pair(username: String, address: String)
        case address(String)
    }

    /// A key's failures: how many, and when the latest was.
    private struct Failures {
        var count: Int
        var latest: Date
    }

    private let policy: Policy
    private let now: @Sendable () -> Date
    private var failures: [Key: Failures] = [:]
    /// Above this many keys, forgotten ones are swept so a spray of names cannot grow memory forever.
    private let sweepThreshold = 10_000

    public init(policy: Policy = Policy(), now: @escaping @Sendable () -> Date = Date.init) {
        self.policy = policy
        self.now = now
    }

    /// Admits a sign-in attempt for `username` (already normalised) from `address`, counting it
    /// as a failure until ``succeeded(_:)``, or says how long the caller must wait. An empty
    /// address (unknown peer) has no address key; its pair key then slows the username for
    /// every unknown peer alike.
    public func admit(username: String, address: String) -> Admission {
        let time = now()
        var keys: [(Key, Int)] = [(.pair(username: username, address: address), policy.pairFreeFailures)]
        if !address.isEmpty { keys.append((.address(address), policy.addressFreeFailures)) }
        var wait: TimeInterval = 0
        for (key, free) in keys {
            guard let counted = current(key, at: time) else { continue }
            let delay = policy.delay(afterFailures: counted.count, free: free)
            wait = max(wait, counted.latest.addingTimeInterval(delay).timeIntervalSince(time))
        }
        if wait > 0 { return .locked(retryAfter: max(1, Int(wait.rounded(.up)))) }
        for (key, _) in keys {
            failures[key] = Failures(count: (failures[key]?.count ?? 0) + 1, latest: time)
        }
        if failures.count > sweepThreshold { sweep(at: time) }
        return .allowed(Attempt(username: username, address: address, at: time))
    }

    /// The attempt proved the password: forgets the (username, address) key and takes back the
    /// attempt's count on its address.
    public func succeeded(_ attempt: Attempt) {
        failures[.pair(username: attempt.username, address: attempt.address)] = nil
        let key = Key.address(attempt.address)
        guard var counted = failures[key] else { return }
        counted.count -= 1
        failures[key] = counted.count > 0 ? counted : nil
    }

    // MARK: - Internals

    /// The key's failures unless they are forgotten by now (then it forgets them).
    private func current(_ key: Key, at time: Date) -> Failures? {
        guard let counted = failures[key] else { return nil }
        guard time.timeIntervalSince(counted.latest) < policy.forgetAfter else {
            failures[key] = nil
            return nil
        }
        return counted
    }

    private func sweep(at time: Date) {
        for key in Array(failures.keys) { _ = current(key, at: time) }
    }
}
