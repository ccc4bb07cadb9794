import Foundation

/// First sync of 10,000 notes of 2 KB on a fresh device over loopback, and that device's peak
/// memory. The device runs in a child process (``SyncChild``) against the in-process server;
/// the baseline is `curl` fetching the same pages (``CurlBaseline``).
enum FirstSyncBenchmark {
    static let name = "first-sync"
    /// The largest page the API allows: the fewest round trips, and what curl fetches too.
    static let pageLimit = 500

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let seeded = try await context.seededServer()
        let server = seeded.server
        let notes = seeded.ids.count
        progress("first-sync: curl baseline")
        let curl = try CurlBaseline.fetchAll(
            baseURL: server.baseURL, token: server.token, limit: pageLimit,
            scratch: try context.directory("curl"))
        if let curl, curl.notes != notes {
            throw BenchFailure("curl saw \(curl.notes) notes, expected \(notes)")
        }
        progress("first-sync: a fresh device syncs in a child process")
        let (run, wall) = try measure {
            try Child.run(
                Child.selfExecutable,
                [
                    SyncChild.subcommand, server.baseURL.absoluteString, server.token,
                    server.codec.hexKey, try context.directory("fresh-device").path, "\(pageLimit)",
                ])
        }
        guard run.status == 0,
            let line = String(decoding: run.output, as: UTF8.self).split(separator: "\n").last,
            let report = try? JSONDecoder().decode(SyncChild.Report.self, from: Data(line.utf8))
        else { throw BenchFailure("the sync child failed (exit \(run.status))") }
        if let failure = report.failure { throw BenchFailure("the child's sync failed: \(failure)") }
        guard report.received == notes else {
            throw BenchFailure("the child received \(report.received) notes, expected \(notes)")
        }

        let count = Figure.count(notes)
        let met = report.seconds < 3
        var rows = [
            BenchRow(
                benchmark: name, label: "first sync of \(count) notes of 2 KB, fresh device",
                measured: String(format: "%.2f s", report.seconds),
                baseline: curl.map { String(format: "%.2f s curl (%@)", $0.seconds, Figure.bytes($0.bytes)) }
                    ?? "curl unavailable",
                ratio: curl.map { report.seconds / $0.seconds }, target: "< 3 s", met: met,
                note: "child process wall time \(Figure.seconds(wall)) including start-up; "
                    + "\(pageLimit) notes a page"
                    + (met ? "" : "; see docs/benchmarks.md for where the time goes"))
        ]
        if let peak = report.peakKiB {
            let megabytes = Double(peak) / 1024
            rows.append(
                BenchRow(
                    benchmark: name, label: "peak memory of the syncing device (VmHWM)",
                    measured: String(format: "%.1f MiB", megabytes), target: "< 150 MB",
                    met: megabytes < 150))
        } else {
            rows.append(
                .notMeasured(
                    name, "peak memory of the syncing device", reason: "no /proc/self/status here",
                    target: "< 150 MB"))
        }
        return rows
    }
}
