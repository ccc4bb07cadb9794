import Foundation
import QuireMerge

/// Merge time for two concurrent edit sets on a 10 KB and a 100 KB note, taken from a real typing
/// history (automerge-paper): the text at some point is the base; the next run of keystrokes is
/// one device's offline edits, the run after it the other's. `ThreeWayMerge.merge` against the
/// naive baseline of diffing the base against both sides by line LCS.
enum MergeBenchmark {
    static let name = "merge"
    /// Keystroke patches in each device's edit set.
    static let editsPerSide = 300

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        progress("merge: replaying the automerge-paper trace")
        let trace = try EditingTrace.load("automerge-paper")
        guard let small = trace.firstIndex(reachingLength: 10_000) else {
            throw BenchFailure("the trace never reaches 10,000 characters")
        }
        let large = trace.patches.count - 2 * editsPerSide
        return [
            try measureCase(trace, at: small, target: .milliseconds(1), rounds: context.sizes.mergeRounds),
            try measureCase(trace, at: large, target: nil, rounds: context.sizes.mergeRounds),
        ]
    }

    private static func measureCase(
        _ trace: EditingTrace, at start: Int, target: Duration?, rounds: Int
    ) throws -> BenchRow {
        let (base, local, server) = trace.concurrentEdits(at: start, count: editsPerSide)
        var merges = Samples()
        var diffs = Samples()
        var outcome = ""
        for round in 0..<(rounds + 5) {
            let (result, mergeTime) = measure { ThreeWayMerge.merge(base: base, local: local, server: server) }
            let (_, diffTime) = measure {
                LineLCS.length(base, local) + LineLCS.length(base, server)
            }
            guard round >= 5 else { continue }
            merges.append(mergeTime)
            diffs.append(diffTime)
            switch result {
            case .clean(let text): outcome = text == local || text == server ? "clean, one side only" : "clean"
            case .clash: outcome = "clash"
            }
        }
        let size = Figure.bytes(base.utf8.count)
        let met = target.map { merges.median < $0 }
        return BenchRow(
            benchmark: name,
            label: "merge \(editsPerSide)+\(editsPerSide) keystrokes on a \(size) note, median (p99)",
            measured: "\(Figure.milliseconds(merges.median)) (\(Figure.milliseconds(merges.p99)))",
            baseline: "\(Figure.milliseconds(diffs.median)) 2× line LCS",
            ratio: merges.median.seconds / diffs.median.seconds,
            target: target.map { "< \(Figure.milliseconds($0))" } ?? "-", met: met,
            note: outcome == "clash"
                ? "outcome: clash: ThreeWayMerge gave up on these edits (both sides changed the text), "
                    + "so the figure is the cost of deciding that, not of a line merge"
                : "outcome: \(outcome)")
    }
}
