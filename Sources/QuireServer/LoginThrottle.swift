import Foundation

/// Counts failed sign-ins per username and per remote address in a sliding window, and locks a
/// key that reached its limit until its oldest counted failure leaves the window.
///
/// Every attempt is counted as a failure the moment it is admitted, and taken back when it
/// succeeds, so parallel guesses cannot all slip past the check before any failure is recorded.
/// A success clears the username's failures (the address keeps its other failures).
///
/// The state lives in this actor's memory: it resets when the process restarts, and several
/// server instances behind a load balancer would each keep their own (an attacker spread over
/// them gets that many times the limit). Moving it to the database is the fix when that matters.
public actor LoginThrottle {
    /// The limits. A key is locked while it has `limit` failures younger than `window` seconds.
    public struct Policy: Sendable, Equatable {
        public var usernameLimit: Int
        /// Higher than the username's: many people may share one address (NAT, offices).
        public var addressLimit: Int
        public var window: TimeInterval

        public init(usernameLimit: Int = 5, addressLimit: Int = 20, window: TimeInterval = 900) {
            self.usernameLimit = max(1, usernameLimit)
            self.addressLimit = max(1, addressLimit)
            self.window = window
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
        case username(String)
        case address(String)
    }

    private let policy: Policy
    private let now: @Sendable () -> Date
    /// The latest failures of each key, oldest first, at most the key's limit of them.
    private var failures: [Key: [Date]] = [:]
    /// Above this many keys, expired ones are swept so a spray of names cannot grow memory forever.
    private let sweepThreshold = 10_000

    public init(policy: Policy = Policy(), now: @escaping @Sendable () -> Date = Date.init) {
        self.policy = policy
        self.now = now
    }

    /// Admits a sign-in attempt for `username` (already normalised) from `address`, counting it
    /// as a failure until ``succeeded(_:)``, or says how long the caller must wait. An empty
    /// address (unknown peer) is not throttled by address.
    public func admit(username: String, address: String) -> Admission {
        let time = now()
        var keys: [(Key, Int)] = [(.username(username), policy.usernameLimit)]
        if !address.isEmpty { keys.append((.address(address), policy.addressLimit)) }
        var wait: TimeInterval = 0
        for (key, limit) in keys {
            let recent = prune(key, at: time)
            if recent.count >= limit, let oldest = recent.first {
                wait = max(wait, oldest.addingTimeInterval(policy.window).timeIntervalSince(time))
            }
        }
        if wait > 0 { return .locked(retryAfter: max(1, Int(wait.rounded(.up)))) }
        for (key, limit) in keys { record(key, at: time, limit: limit) }
        if failures.count > sweepThreshold { sweep(at: time) }
        return .allowed(Attempt(username: username, address: address, at: time))
    }

    /// The attempt proved the password: clears the username's failures and takes back the
    /// attempt's count on its address.
    public func succeeded(_ attempt: Attempt) {
        failures[.username(attempt.username)] = nil
        let key = Key.address(attempt.address)
        if var stamps = failures[key], let index = stamps.lastIndex(of: attempt.at) {
            stamps.remove(at: index)
            failures[key] = stamps.isEmpty ? nil : stamps
        }
    }

    // MARK: - Internals

    /// The key's failures still inside the window; forgets the older ones.
    private func prune(_ key: Key, at time: Date) -> [Date] {
        guard let stamps = failures[key] else { return [] }
        let recent = stamps.filter { time.timeIntervalSince($0) < policy.window }
        failures[key] = recent.isEmpty ? nil : recent
        return recent
    }

    private func record(_ key: Key, at time: Date, limit: Int) {
        var stamps = failures[key, default: []]
        stamps.append(time)
        if stamps.count > limit { stamps.removeFirst(stamps.count - limit) }
        failures[key] = stamps
    }

    private func sweep(at time: Date) {
        for key in Array(failures.keys) { _ = prune(key, at: time) }
    }
}
