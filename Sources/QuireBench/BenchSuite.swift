import Foundation

/// Every benchmark, in the order they run, and the loop that runs the chosen ones.
enum BenchSuite {
    typealias Benchmark = (name: String, run: @Sendable (BenchContext) async throws -> [BenchRow])

    static let all: [Benchmark] = [
        (SaveBenchmark.name, SaveBenchmark.run),
        (ColdOpenBenchmark.name, ColdOpenBenchmark.run),
        (MergeBenchmark.name, MergeBenchmark.run),
        (FirstSyncBenchmark.name, FirstSyncBenchmark.run),
        (WireBytesBenchmark.name, WireBytesBenchmark.run),
        (DrainBenchmark.name, DrainBenchmark.run),
        (ServerPutBenchmark.name, ServerPutBenchmark.run),
        (liveUpdateName, liveUpdate),
    ]

    static var names: [String] { all.map(\.name) }

    /// Runs the benchmarks `context.options` selects. A benchmark that throws becomes a row saying
    /// why, and the others still run.
    static func run(_ context: BenchContext) async -> [BenchRow] {
        var rows: [BenchRow] = []
        for benchmark in all where context.options.includes(benchmark.name) {
            do {
                rows += try await benchmark.run(context)
            } catch {
                progress("\(benchmark.name) failed: \(error)")
                rows.append(
                    BenchRow(
                        benchmark: benchmark.name, label: benchmark.name, measured: "failed",
                        note: "\(error)"))
            }
        }
        return rows
    }

    // MARK: - Live update (issue 5)

    static let liveUpdateName = "live-update"

    /// An edit on device A until visible on device B through a real server with long-poll. The
    /// client has no long-poll loop yet, so this reports that instead of a number.
    static func liveUpdate(_ context: BenchContext) async throws -> [BenchRow] {
        [
            .notMeasured(
                liveUpdateName,
                "edit on A visible on B via long-poll, median and p99 over \(context.sizes.liveEdits) edits",
                reason: "not yet measured: needs the live-update engine (the client's long-poll loop)",
                target: "median < 100 ms")
        ]
    }
}
