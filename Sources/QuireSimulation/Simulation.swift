/// The deterministic, fault-injecting sync simulation (issue 6 part 1).
///
/// N devices (real databases in a temporary directory, the real engine and conflict policy) and
/// one server (the real handler core and storage) in one process, driven by a plan drawn from one
/// seed: user edits, syncs, network faults, partitions, crashes. At the end everything heals and
/// syncs to quiescence, and the checks run: convergence, nothing lost, at most once, termination
/// (see ``SimulationFailure/Kind``). The same plan gives the same outcome on every run.
public enum Simulation {
    /// Runs one plan in a fresh world and returns its outcome. Never throws: a harness problem is
    /// a failure of kind `.harness`.
    public static func run(_ actions: [SimulationAction], config: SimulationConfig) async
        -> SimulationOutcome
    {
        let world: SimulationWorld
        do {
            world = try await SimulationWorld(config: config)
        } catch {
            return SimulationOutcome(
                failure: SimulationFailure(kind: .harness, message: "setting up: \(error)"),
                digest: "", stats: SimulationStats())
        }
        defer { world.remove() }
        let failure = await world.run(actions)
        return SimulationOutcome(failure: failure, digest: await world.digest(), stats: world.stats)
    }

    /// Runs the plan of `seed`.
    public static func run(seed: UInt64, config: SimulationConfig) async -> SimulationOutcome {
        await run(ActionPlanner.plan(seed: seed, config: config), config: config)
    }

    /// Runs `seed`; when it fails, shrinks its plan to the shortest it can find that still fails
    /// the same way.
    public static func check(seed: UInt64, config: SimulationConfig, shrinkBudget: Int = 400) async
        -> SeedReport
    {
        let plan = ActionPlanner.plan(seed: seed, config: config)
        let outcome = await run(plan, config: config)
        guard let failure = outcome.failure else {
            return SeedReport(seed: seed, outcome: outcome, shrunkPlan: nil, shrunkFailure: nil)
        }
        let shrunk = await Shrinker.shrink(
            plan, failing: failure.kind, config: config, budget: shrinkBudget)
        return SeedReport(
            seed: seed, outcome: outcome, shrunkPlan: shrunk.plan, shrunkFailure: shrunk.failure)
    }
}

/// One seed's result, with the shrunk plan when it failed.
public struct SeedReport: Sendable {
    public var seed: UInt64
    public var outcome: SimulationOutcome
    /// The shortest failing sub-plan found; nil when the seed passed.
    public var shrunkPlan: [SimulationAction]?
    /// The failure the shrunk plan produces.
    public var shrunkFailure: SimulationFailure?

    public var passed: Bool { outcome.passed }

    /// What to print for a failing seed: the seed, the failure, and the shrunk log to replay.
    public var failureText: String {
        guard let failure = outcome.failure else { return "seed \(seed): passed" }
        var lines = ["seed \(seed) FAILED: \(failure)"]
        if let shrunkPlan, let shrunkFailure {
            lines.append("shrunk to \(shrunkPlan.count) actions, failing with: \(shrunkFailure)")
            lines += shrunkPlan.enumerated().map { "  \($0.offset): \($0.element)" }
        }
        return lines.joined(separator: "\n")
    }
}
