/// A Prometheus-style latency histogram: counts per upper bound, plus the sum and count of all
/// observations. A value type; ``ServerMetrics`` keeps one per route and method under its lock.
struct Histogram: Sendable, Equatable {
    /// Upper bounds in seconds, ascending; `+Inf` is implied after the last. From 1 ms for cheap
    /// reads up to 60 s, so a long-poll held for the full 30 s (plus its page read) still lands in
    /// a finite bucket rather than only in `+Inf`.
    static let defaultBounds: [Double] = [
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60,
    ]

    let bounds: [Double]
    /// Per-bucket counts, not cumulative: `counts[i]` holds observations in
    /// `(bounds[i-1], bounds[i]]`, and the extra last slot those above every bound.
    private(set) var counts: [UInt64]
    private(set) var sum: Double = 0
    private(set) var count: UInt64 = 0

    /// An empty histogram over `bounds`, which must be ascending.
    init(bounds: [Double] = Histogram.defaultBounds) {
        self.bounds = bounds
        self.counts = Array(repeating: 0, count: bounds.count + 1)
    }

    /// Adds one observation of `seconds`. A value equal to a bound counts in that bound's bucket
    /// (`le` means less than or equal). Negative values are counted as zero.
    mutating func observe(_ seconds: Double) {
        let value = max(0, seconds)
        let index = bounds.firstIndex { value <= $0 } ?? bounds.count
        counts[index] &+= 1
        sum += value
        count &+= 1
    }

    /// The cumulative counts the exposition format wants, one per bound and then `+Inf`
    /// (which always equals ``count``).
    var cumulativeCounts: [UInt64] {
        var running: UInt64 = 0
        return counts.map { bucket in
            running &+= bucket
            return running
        }
    }
}
