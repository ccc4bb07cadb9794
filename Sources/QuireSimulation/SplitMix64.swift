/// SplitMix64 (Steele, Lea and Flood): a tiny, fast PRNG whose whole state is one `UInt64`, so a
/// seed alone reproduces every choice made from it.
///
/// The simulation's only source of randomness: the planner draws every action from one of these.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in `0..<bound` (`bound` > 0).
    public mutating func below(_ bound: Int) -> Int {
        Int.random(in: 0..<bound, using: &self)
    }

    /// True with probability `percent`/100.
    public mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }
}
