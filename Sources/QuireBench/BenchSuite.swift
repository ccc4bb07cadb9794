import Foundation

/// Every benchmark, in the order they run, and the loop that runs the chosen ones.
enum BenchSuite {
    typealias Benchmark = (name: String, run: @Sendable (BenchContext) async throws -> [BenchRow])

    static let all: [Benchmark] = [
        (SaveBenchmark.name, SaveBenchmark.run),
        (ColdOpenBenchmark.name, ColdOpenBenchmark.run),
        (LazyListBenchmark.name, LazyListBenchmark.run),
        (SearchBenchmark.name, SearchBenchmark.run),
        (MergeBenchmark.name, MergeBenchmark.run),
        (FirstSyncBenchmark.name, FirstSyncBenchmark.run),
        (WireBytesBenchmark.name, WireBytesBenchmark.run),
        (DrainBenchmark.name, DrainBenchmark.run),
        (ServerPutBenchmark.name, ServerPutBenchmark.run),
        (PutScaleBenchmark.name, PutScaleBenchmark.run),
        (FeedPollBenchmark.name, FeedPollBenchmark.run),
        (LiveUpdateBenchmark.name, LiveUpdateBenchmark.run),
        (IdleWaitBenchmark.name, IdleWaitBenchmark.run),
        (ConnectionFloodBenchmark.name, ConnectionFloodBenchmark.run),
        (OrderKeysBenchmark.name, OrderKeysBenchmark.run),
        (TripSyncBenchmark.name, TripSyncBenchmark.run),
        (HistoryStorageBenchmark.name, HistoryStorageBenchmark.run),
        (HistoryListBenchmark.name, HistoryListBenchmark.run),
        (PhotoBenchmark.name, PhotoBenchmark.run),
        (PhotoUploadBenchmark.name, PhotoUploadBenchmark.run),
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
}
