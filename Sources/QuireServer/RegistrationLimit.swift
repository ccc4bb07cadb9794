import Foundation

/// A token bucket per client address for registrations (issue 12, item 8): each registration
/// costs the server a slow hash (PBKDF2), so one address may register ``Policy/burst`` accounts
/// at once and one more every ``Policy/interval`` seconds after that.
///
/// The state lives in this actor's memory (unlike ``LoginThrottle``'s counters, which the
/// database keeps): it resets with the process, and each instance behind a load balancer keeps
/// its own.
public actor RegistrationLimit {
    /// The bucket's size and refill rate.
    public struct Policy: Sendable, Equatable {
        /// Registrations one address may make at once.
        public var burst: Int
        /// Seconds for the bucket to gain one registration back.
        public var interval: TimeInterval

        public init(burst: Int = 10, interval: TimeInterval = 60) {
            self.burst = max(1, burst)
            self.interval = max(0.001, interval)
        }
    }

    private struct Bucket {
        var tokens: Double
        var at: Date
    }

    private let policy: Policy
    private let now: @Sendable () -> Date
    private var buckets: [String: Bucket] = [:]
    /// Above this many addresses, full buckets are swept so a spray of addresses cannot grow memory.
    private let sweepThreshold = 10_000

    public init(policy: Policy = Policy(), now: @escaping @Sendable () -> Date = Date.init) {
        self.policy = policy
        self.now = now
    }

    /// Takes one registration from `address`'s bucket and returns nil, or returns how many whole
    /// seconds (≥ 1) until it holds one. An empty address (unknown peer) shares one bucket.
    public func take(address: String) -> Int? {
        let time = now()
        var bucket = refilled(buckets[address], at: time)
        guard bucket.tokens >= 1 else {
            return max(1, Int(((1 - bucket.tokens) * policy.interval).rounded(.up)))
        }
        bucket.tokens -= 1
        buckets[address] = bucket
        if buckets.count > sweepThreshold { sweep(at: time) }
        return nil
    }

    private func refilled(_ bucket: Bucket?, at time: Date) -> Bucket {
        guard let bucket else { return Bucket(tokens: Double(policy.burst), at: time) }
        let gained = max(0, time.timeIntervalSince(bucket.at)) / policy.interval
        return Bucket(tokens: min(Double(policy.burst), bucket.tokens + gained), at: time)
    }

    private func sweep(at time: Date) {
        buckets = buckets.filter { refilled($0.value, at: time).tokens < Double(policy.burst) }
    }
}
