import Foundation

/// A seeded random number generator (SplitMix64): the same seed gives the same choices, so a
/// failing randomized test can be run again.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// Seeded from the environment variable `name` when it holds a number, otherwise freshly.
    public init(environment name: String) {
        self.init(
            seed: ProcessInfo.processInfo.environment[name].flatMap { UInt64($0) }
                ?? UInt64.random(in: 0...UInt64.max))
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform number of seconds in `range`.
    public mutating func delay(_ range: ClosedRange<TimeInterval>) -> TimeInterval {
        TimeInterval.random(in: range, using: &self)
    }

    /// True with `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }
}
