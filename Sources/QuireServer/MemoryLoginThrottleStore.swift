import Foundation

/// ``LoginThrottleStore`` in this process's memory: it resets when the process restarts, and
/// every instance keeps its own. For tests, and for a wrapped store that keeps no counters.
public actor MemoryLoginThrottleStore: LoginThrottleStore {
    private var failures: [String: LoginFailures] = [:]
    /// Above this many keys, forgotten ones are swept so a spray of names cannot grow memory forever.
    private let sweepThreshold = 10_000

    public init() {}

    public func admitLoginAttempt(
        keys: [String], at time: Date, forgetBefore: Date,
        decide: @escaping @Sendable ([LoginFailures?]) -> TimeInterval
    ) -> TimeInterval {
        let counted = keys.map { key in failures[key].flatMap { $0.latest <= forgetBefore ? nil : $0 } }
        let wait = decide(counted)
        guard wait <= 0 else { return wait }
        for (key, current) in zip(keys, counted) {
            failures[key] = LoginFailures(count: (current?.count ?? 0) + 1, latest: time)
        }
        if failures.count > sweepThreshold { failures = failures.filter { $0.value.latest > forgetBefore } }
        return wait
    }

    public func loginSucceeded(forgetting: String, takingBackFrom: String?) {
        failures[forgetting] = nil
        guard let takingBackFrom, var counted = failures[takingBackFrom] else { return }
        counted.count -= 1
        failures[takingBackFrom] = counted.count > 0 ? counted : nil
    }
}
