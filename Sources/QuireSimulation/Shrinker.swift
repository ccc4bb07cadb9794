/// Shrinks a failing plan by deleting actions while it still fails the same way (greedy delta
/// debugging: chunks of halving size, then single actions), so a failure comes with the shortest
/// story that tells it.
enum Shrinker {
    /// The smallest sub-plan found (within `budget` runs) failing with `kind`, and its failure.
    static func shrink(
        _ plan: [SimulationAction], failing kind: SimulationFailure.Kind, config: SimulationConfig,
        budget: Int
    ) async -> (plan: [SimulationAction], failure: SimulationFailure?) {
        var current = plan
        var failure: SimulationFailure?
        var runs = 0
        var chunk = max(1, current.count / 2)
        while runs < budget {
            var removedAny = false
            var start = 0
            while start < current.count, runs < budget {
                var candidate = current
                candidate.removeSubrange(start..<min(start + chunk, current.count))
                runs += 1
                let outcome = await Simulation.run(candidate, config: config)
                if let found = outcome.failure, found.kind == kind {
                    current = candidate
                    failure = found
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if chunk == 1 && !removedAny { break }
            chunk = max(1, chunk / 2)
        }
        if failure == nil { failure = await Simulation.run(current, config: config).failure }
        return (current, failure)
    }
}
