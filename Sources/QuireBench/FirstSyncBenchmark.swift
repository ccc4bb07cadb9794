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
        progress("first-sync: a fresh device syncs in a child process, one page after the other")
        let (serial, serialWall) = try childSync(context, server: server, notes: notes, serial: true)
        progress("first-sync: a fresh device syncs in a child process, reading ahead")
        let (report, wall) = try childSync(context, server: server, notes: notes, serial: false)

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
                    + "\(pageLimit) notes a page; the next page fetched, decoded and opened (on every "
                    + "core) while the current one is stored"
                    + (met ? "" : "; see docs/benchmarks.md for where the time goes")),
            BenchRow(
                benchmark: name, label: "first sync of \(count) notes of 2 KB, one page after the other",
                measured: String(format: "%.2f s", serial.seconds),
                baseline: curl.map { String(format: "%.2f s curl", $0.seconds) } ?? "curl unavailable",
                ratio: curl.map { serial.seconds / $0.seconds }, target: "-", met: nil,
                note: "the same engine with readAhead: false (the default and the path before), same run; child wall "
                    + "time \(Figure.seconds(serialWall)); peak memory "
                    + (serial.peakKiB.map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "unknown")),
        ]
        if let curl {
            rows.append(
                BenchRow(
                    benchmark: name, label: "first sync of \(count) notes, ratio to curl",
                    measured: String(format: "%.2f×", report.seconds / curl.seconds),
                    baseline: String(format: "%.2f× one page after the other", serial.seconds / curl.seconds),
                    target: "≤ 2× curl", met: report.seconds / curl.seconds <= 2))
        }
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

    /// Runs the syncing device in a fresh directory and returns its report and wall time.
    private static func childSync(_ context: BenchContext, server: BenchServer, notes: Int, serial: Bool)
        throws -> (SyncChild.Report, Duration)
    {
        let directory = try context.directory(serial ? "fresh-device-serial" : "fresh-device")
        let (run, wall) = try measure {
            try Child.run(
                Child.selfExecutable,
                [
                    SyncChild.subcommand, server.baseURL.absoluteString, server.token,
                    server.codec.hexKey, directory.path, "\(pageLimit)",
                ] + (serial ? ["serial"] : []))
        }
        guard run.status == 0,
            let line = String(decoding: run.output, as: UTF8.self).split(separator: "\n").last,
            let report = try? JSONDecoder().decode(SyncChild.Report.self, from: Data(line.utf8))
        else { throw BenchFailure("the sync child failed (exit \(run.status))") }
        if let failure = report.failure { throw BenchFailure("the child's sync failed: \(failure)") }
        guard report.received == notes else {
            throw BenchFailure("the child received \(report.received) notes, expected \(notes)")
        }
        return (report, wall)
    }
}
