import Foundation
import QuireSimulation

/// Runs the seeds one after another, stops at the first failure (printing its seed and shrunk
/// log) and returns the exit status.
struct SimRunner {
    let options: SimOptions

    func run() async -> Int32 {
        let config = SimulationConfig(
            devices: options.devices, steps: options.steps, trips: options.trips, companion: options.companion)
        var total = SimulationStats()
        let began = Date()
        for offset in 0..<options.seeds {
            let seed = options.start &+ UInt64(offset)
            let report = await Simulation.check(seed: seed, config: config)
            total.add(report.outcome.stats)
            if options.verbose {
                let verdict = report.passed ? "ok" : "FAILED"
                print("seed \(seed): \(verdict) — \(report.outcome.stats.summary)")
            }
            if !report.passed {
                print(report.failureText)
                let flags =
                    "--devices \(options.devices) --steps \(options.steps)" + (options.trips ? "" : " --no-trips")
                print("rerun: quire-sim --start \(seed) --seeds 1 \(flags) --verbose")
                return 1
            }
            if (offset + 1) % 100 == 0 {
                let elapsed = Date().timeIntervalSince(began)
                FileHandle.standardError.write(
                    Data(
                        "quire-sim: \(offset + 1)/\(options.seeds) seeds passed (\(Int(elapsed)) s)\n"
                            .utf8))
            }
        }
        let last = options.start &+ UInt64(options.seeds - 1)
        print(
            "quire-sim: all \(options.seeds) seeds passed (\(options.start)...\(last)); "
                + total.summary)
        return 0
    }
}
