import Foundation
import QuireMerge

/// Merge time for two concurrent edit sets on a 10 KB and a 100 KB note, taken from a real typing
/// history (automerge-paper): the text at some point is the base; the next run of keystrokes is
/// one device's offline edits, the run after it the other's, replayed onto the base
/// (``EditingTrace/disjointEdits(base:at:count:)``). Windows are tried from the chosen size on;
/// the figure is timed on the first window that merges cleanly into exactly the trace's own text,
/// and the row says how many windows merged cleanly, clashed, or merged into something else.
/// Baseline: diffing the base against both sides by line LCS, the textbook way.
enum MergeBenchmark {
    static let name = "merge"
    /// Keystroke patches in each device's edit set.
    static let editsPerSide = 300
    /// Windows tried per size, and the patches between two windows' starts.
    static let windows = 150
    static let stride = 41

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        progress("merge: replaying the automerge-paper trace")
        let trace = try EditingTrace.load("automerge-paper")
        guard let small = trace.firstIndex(reachingLength: 10_000) else {
            throw BenchFailure("the trace never reaches 10,000 characters")
        }
        let large = trace.patches.count - 2 * editsPerSide - windows * stride
        return [
            try measureCase(trace, from: small, target: .milliseconds(1), rounds: context.sizes.mergeRounds),
            try measureCase(trace, from: large, target: nil, rounds: context.sizes.mergeRounds),
        ]
    }

    /// What the windows from one starting point did, and the first clean one.
    private struct Survey {
        var disjoint = 0
        var exact = 0
        var otherClean = 0
        var clashes = 0
        var chosen: EditingTrace.ConcurrentEdits?
        var chosenStart = 0
    }

    private static func survey(_ trace: EditingTrace, from start: Int) -> Survey {
        var survey = Survey()
        var buffer = ScalarGapBuffer(Array(trace.startContent.unicodeScalars))
        for patch in trace.patches.prefix(start) { buffer.apply(patch) }
        for window in 0..<windows {
            let at = start + window * stride
            if window > 0 {
                for patch in trace.patches[(at - stride)..<at] { buffer.apply(patch) }
            }
            guard let edits = trace.disjointEdits(base: buffer.scalars, at: at, count: editsPerSide) else {
                continue
            }
            survey.disjoint += 1
            switch ThreeWayMerge.merge(base: edits.base, local: edits.local, server: edits.server) {
            case .clean(let text) where text == edits.sequential:
                survey.exact += 1
                if survey.chosen == nil, edits.local != edits.base, edits.server != edits.base {
                    survey.chosen = edits
                    survey.chosenStart = at
                }
            case .clean: survey.otherClean += 1
            case .clash: survey.clashes += 1
            }
        }
        return survey
    }

    private static func measureCase(
        _ trace: EditingTrace, from start: Int, target: Duration?, rounds: Int
    ) throws -> BenchRow {
        let survey = survey(trace, from: start)
        guard let edits = survey.chosen else {
            throw BenchFailure(
                "no window from patch \(start) merged cleanly (\(survey.disjoint) disjoint, "
                    + "\(survey.clashes) clashed, \(survey.otherClean) merged into other text)")
        }
        var merges = Samples()
        var diffs = Samples()
        for round in 0..<(rounds + 5) {
            let (result, mergeTime) = measure {
                ThreeWayMerge.merge(base: edits.base, local: edits.local, server: edits.server)
            }
            let (_, diffTime) = measure {
                LineLCS.length(edits.base, edits.local) + LineLCS.length(edits.base, edits.server)
            }
            guard result == .clean(edits.sequential) else {
                throw BenchFailure("the merge of the chosen window changed its answer")
            }
            guard round >= 5 else { continue }
            merges.append(mergeTime)
            diffs.append(diffTime)
        }
        let size = Figure.bytes(edits.base.utf8.count)
        let tried =
            "\(windows) windows tried (every \(stride) patches from patch \(start)): \(survey.disjoint) "
            + "had the second run outside the text the first run changed; of those \(survey.exact) merged "
            + "cleanly into exactly the trace's own text, \(survey.clashes) clashed (kept both), "
            + "\(survey.otherClean) merged into a different text"
        return BenchRow(
            benchmark: name,
            label: "merge \(editsPerSide)+\(editsPerSide) keystrokes on a \(size) note, clean, median (p99)",
            measured: "\(Figure.milliseconds(merges.median)) (\(Figure.milliseconds(merges.p99)))",
            baseline: "\(Figure.milliseconds(diffs.median)) 2× line LCS",
            ratio: merges.median.seconds / diffs.median.seconds,
            target: target.map { "< \(Figure.milliseconds($0))" } ?? "-", met: target.map { merges.median < $0 },
            note: "timed on the window at patch \(survey.chosenStart), merged text equal to the trace's "
                + "own; \(tried)")
    }
}
