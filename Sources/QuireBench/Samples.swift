import Foundation

/// Timings of one operation, with the order statistics the report uses.
struct Samples {
    private(set) var durations: [Duration] = []

    init(_ durations: [Duration] = []) {
        self.durations = durations
    }

    mutating func append(_ duration: Duration) {
        durations.append(duration)
    }

    var count: Int { durations.count }

    /// The value below which `fraction` of the samples fall (nearest rank on sorted samples).
    func percentile(_ fraction: Double) -> Duration {
        precondition(!durations.isEmpty, "no samples")
        let sorted = durations.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var median: Duration { percentile(0.5) }
    var p99: Duration { percentile(0.99) }
    var total: Duration { durations.reduce(.zero, +) }
}

/// Times `body` on the continuous clock.
func measure<T>(_ body: () throws -> T) rethrows -> (T, Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try body()
    return (value, clock.now - start)
}

/// Times an async `body` on the continuous clock.
func measureAsync<T>(_ body: () async throws -> T) async rethrows -> (T, Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try await body()
    return (value, clock.now - start)
}
