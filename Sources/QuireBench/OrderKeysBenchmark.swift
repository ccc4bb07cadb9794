import Foundation
import QuireTrips

/// Order keys (issue 14): `OrderKey` beside the seed's `keyBetween` (`SeedOrderKey`, ported line
/// by line), in the same run, through the same cases (``OrderKeyTrial``): the key lengths after
/// appends, prepends and inserts at one spot, random inserts checked strictly between their
/// neighbours, and the median time per appended key. The targets are the issue's.
enum OrderKeysBenchmark {
    static let name = "order-keys"
    static let randomSeeds: [UInt64] = [1, 2, 3]
    static let timingRounds = 5
    static let timingBatch = 100

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let count = context.sizes.orderKeyOps
        let spot = count / 10
        let ours = OrderKeyTrial(between: OrderKey.between)
        let seed = OrderKeyTrial(between: SeedOrderKey.between)
        progress("order-keys: \(count) appends, prepends and random inserts, \(spot) at one spot, both functions")
        var rows = [
            try lengthRow(
                "\(Figure.count(count)) appends, longest (last) key", ours.appends(count), seed.appends(count),
                limit: 6, target: "≤ 6 characters"),
            try lengthRow(
                "\(Figure.count(count)) prepends, longest (first) key", ours.prepends(count), seed.prepends(count),
                limit: 6, target: "≤ 6 characters"),
            try lengthRow(
                "\(Figure.count(spot)) inserts at one spot (each before the fixed right neighbour), longest key",
                ours.insertsAtOneSpot(spot, rightBeforeTheFixedItem: true),
                seed.insertsAtOneSpot(spot, rightBeforeTheFixedItem: true), limit: 199, target: "< 200 characters"),
            try lengthRow(
                "\(Figure.count(spot)) inserts at one spot (each right after the fixed left neighbour), longest key",
                ours.insertsAtOneSpot(spot, rightBeforeTheFixedItem: false),
                seed.insertsAtOneSpot(spot, rightBeforeTheFixedItem: false), limit: 199, target: "< 200 characters"),
            randomRow(count, ours: ours, seed: seed),
        ]
        rows.append(try timingRow(count, ours: ours, seed: seed))
        return rows
    }

    private static func lengthRow(
        _ what: String, _ ours: OrderKeyTrial.Lengths, _ seed: OrderKeyTrial.Lengths, limit: Int, target: String
    ) -> BenchRow {
        let shown = ours.lastKey.utf8.count <= 12 ? " (`\(ours.lastKey)`)" : ""
        return BenchRow(
            benchmark: name, label: "order keys: \(what)", measured: characters(ours.longest),
            baseline: "\(characters(seed.longest)) seed keyBetween",
            ratio: Double(ours.longest) / Double(max(seed.longest, 1)), target: target, met: ours.longest <= limit,
            note: "OrderKey: last key \(characters(ours.last))\(shown), mean \(String(format: "%.1f", ours.mean)); "
                + "seed: last key \(characters(seed.last)), mean \(String(format: "%.1f", seed.mean))")
    }

    private static func randomRow(_ count: Int, ours: OrderKeyTrial, seed: OrderKeyTrial) -> BenchRow {
        let oursRuns = randomSeeds.map { ours.randomInserts(count, seed: $0) }
        let seedRuns = randomSeeds.map { seed.randomInserts(count, seed: $0) }
        func summary(_ runs: [OrderKeyTrial.RandomInserts]) -> String {
            let longest = runs.map(\.lengths.longest)
            let means = runs.map(\.lengths.mean)
            return "longest \(range(longest.min() ?? 0, longest.max() ?? 0)), mean "
                + range(String(format: "%.1f", means.min() ?? 0), String(format: "%.1f", means.max() ?? 0))
        }
        func failures(_ runs: [OrderKeyTrial.RandomInserts]) -> [String] { runs.flatMap(\.misplaced) }
        let checked = oursRuns.map(\.inserts).reduce(0, +)
        let oursFailures = failures(oursRuns)
        let seedFailures = failures(seedRuns)
        var note =
            "\(Figure.count(checked)) OrderKey inserts checked (SplitMix64 seeds "
            + "\(randomSeeds.map(String.init).joined(separator: ", "))): \(summary(oursRuns)) characters; "
            + "seed keyBetween on the same places: \(summary(seedRuns)), "
            + (seedFailures.isEmpty ? "all between too" : "\(seedFailures.count) not between")
        if !oursFailures.isEmpty {
            note += ". OrderKey failures (\(oursFailures.count)): " + oursFailures.prefix(3).joined(separator: "; ")
        }
        return BenchRow(
            benchmark: name,
            label: "order keys: \(Figure.count(count)) random inserts × \(randomSeeds.count) seeds, keys between",
            measured: "\(Figure.count(checked - oursFailures.count)) of \(Figure.count(checked))",
            baseline: "\(Figure.count(checked - seedFailures.count)) of \(Figure.count(checked)) seed",
            target: "every key strictly between its neighbours", met: oursFailures.isEmpty, note: note)
    }

    /// Rounds of `count` appends for each function, alternating so the machine's noise hits both;
    /// the first round of each is a warm-up.
    private static func timingRow(_ count: Int, ours: OrderKeyTrial, seed: OrderKeyTrial) throws -> BenchRow {
        var oursTimes = Samples()
        var seedTimes = Samples()
        for round in 0...timingRounds {
            let o = try ours.appendTimes(count, batch: timingBatch)
            let s = try seed.appendTimes(count, batch: timingBatch)
            guard round > 0 else { continue }
            for duration in o.durations { oursTimes.append(duration) }
            for duration in s.durations { seedTimes.append(duration) }
        }
        return BenchRow(
            benchmark: name, label: "order keys: time per key over \(Figure.count(count)) appends, median",
            measured: nanoseconds(oursTimes.median), baseline: "\(nanoseconds(seedTimes.median)) seed keyBetween",
            ratio: oursTimes.median.seconds / seedTimes.median.seconds,
            note: "\(timingRounds) rounds of \(Figure.count(count)) appends each (after a warm-up round), "
                + "timed in batches of \(timingBatch) keys; p99 \(nanoseconds(oursTimes.p99)) vs "
                + "\(nanoseconds(seedTimes.p99)). The seed's cost grows with the length of its keys, which grow with every few appends"
        )
    }

    private static func characters(_ count: Int) -> String {
        "\(Figure.count(count)) \(count == 1 ? "character" : "characters")"
    }

    private static func nanoseconds(_ duration: Duration) -> String {
        "\(Figure.count(Int((duration.seconds * 1e9).rounded()))) ns"
    }

    private static func range<T: Equatable>(_ low: T, _ high: T) -> String {
        low == high ? "\(low)" : "\(low)–\(high)"
    }
}
