import Foundation

/// A seeded random number generator (SplitMix64), so a failing run can be repeated.
///
/// The seed comes from `QUIRE_CRASH_SEED` when set, otherwise it is fresh; every expectation in the
/// crash tests names it, so a failure says how to run it again.
struct CrashRandom: RandomNumberGenerator {
    let seed: UInt64
    private var state: UInt64

    init(seed: UInt64? = nil) {
        let chosen =
            seed ?? ProcessInfo.processInfo.environment["QUIRE_CRASH_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        self.seed = chosen
        self.state = chosen
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A delay of up to `maximum` seconds, uniform, at microsecond grain.
    mutating func delay(upTo maximum: TimeInterval) -> TimeInterval {
        TimeInterval(Int.random(in: 0...Int(maximum * 1_000_000), using: &self)) / 1_000_000
    }

    /// "rerun with QUIRE_CRASH_SEED=…": attached to every expectation.
    var rerun: String { "rerun with QUIRE_CRASH_SEED=\(seed)" }
}
