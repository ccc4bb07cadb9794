import Foundation

/// How long to wait before trying again after a failed sync: exponential backoff with full jitter
/// (AWS's "exponential backoff and jitter"), honouring the server's `Retry-After`. Pure.
///
/// Attempt 1 waits up to `base`, attempt 2 up to 2 × `base`, … never more than `cap`. A
/// `Retry-After` wins when it asks for longer, so a busy server gets the quiet it asked for.
public struct RetryPolicy: Sendable, Equatable {
    public var base: Duration
    public var cap: Duration

    public init(base: Duration = .seconds(1), cap: Duration = .seconds(60)) {
        self.base = base
        self.cap = cap
    }

    /// The delay before retry number `attempt` (1 for the first retry), in whole milliseconds.
    /// `random` is in 0..<1; the same inputs give the same delay.
    public func delay(attempt: Int, retryAfter: Double? = nil, random: Double) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let ceiling = min(base * (1 << exponent), cap)
        // Full jitter, but never less than a tenth of the ceiling, so retries do not bunch at zero.
        let fraction = 0.1 + 0.9 * min(max(random, 0), 1)
        let ceilingMilliseconds =
            Double(ceiling.components.seconds) * 1000
            + Double(ceiling.components.attoseconds) / 1e15
        var delay = Duration.milliseconds(Int64((ceilingMilliseconds * fraction).rounded()))
        if let retryAfter, retryAfter > 0 {
            delay = max(delay, .milliseconds(Int64(retryAfter * 1000)))
        }
        return delay
    }
}
