import Foundation

/// First sync of notes of 2 KB on a fresh device over loopback, and that device's peak memory, at
/// each size of ``BenchOptions/firstSyncNotes`` (10,000 and 100,000 in a full run). The device
/// runs in a child process (``SyncChild``) against the in-process server; the baseline is `curl`
/// fetching the same pages (``CurlBaseline``). Beside them, the floor under the storing: the same
/// notes stored with bare SQLite calls, with and without the search index (``StoreFloorChild``).
enum FirstSyncBenchmark {
    static let name = "first-sync"
    /// The largest page the API allows: the fewest round trips, and what curl fetches too.
    static let pageLimit = 500
    /// The sizes of a full run.
    static let fullSizes = [10_000, 100_000]

    /// One size's figures.
    private struct Measured {
        var notes: Int
        var curl: CurlBaseline.Result?
        var serial: SyncChild.Report
        var serialWall: Duration
        /// Reading ahead: measured at the run's first size only.
        var readAhead: (report: SyncChild.Report, wall: Duration)?
        /// The bare store of the same notes with the search index, and without it.
        var floor: (search: StoreFloorChild.Report, rows: StoreFloorChild.Report)
    }

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let sizes = context.options.firstSyncNotes ?? (context.options.quick ? [context.sizes.notes] : fullSizes)
        var measured: [Measured] = []
        for (index, notes) in sizes.enumerated() {
            measured.append(try await measureSize(context, notes: notes, readAhead: index == 0))
        }
        var rows: [BenchRow] = []
        for size in measured {
            rows += Self.rows(size, smallest: measured[0])
        }
        return rows
    }

    /// Seeds a server with `notes` notes (the run's shared one at its own size) and syncs a fresh
    /// device from it, one page after the other and, with `readAhead`, reading ahead too.
    private static func measureSize(_ context: BenchContext, notes: Int, readAhead: Bool) async throws -> Measured {
        let server: BenchServer
        var own: BenchServer?
        if notes == context.sizes.notes {
            server = try await context.seededServer().server
        } else {
            server = try await BenchServer(directory: try context.directory("first-sync-server"), codec: context.codec)
            own = server
            progress("first-sync: seeding a server with \(notes) notes of 2 KB")
            _ = try await server.seed(count: notes, corpus: context.corpus)
        }
        progress("first-sync: curl baseline, \(notes) notes")
        let curl = try CurlBaseline.fetchAll(
            baseURL: server.baseURL, token: server.token, limit: pageLimit,
            scratch: try context.directory("curl"))
        if let curl, curl.notes != notes {
            throw BenchFailure("curl saw \(curl.notes) notes, expected \(notes)")
        }
        progress("first-sync: a fresh device syncs \(notes) notes in a child process, one page after the other")
        let (serial, serialWall) = try childSync(context, server: server, notes: notes, serial: true)
        var ahead: (SyncChild.Report, Duration)?
        if readAhead {
            progress("first-sync: a fresh device syncs \(notes) notes in a child process, reading ahead")
            ahead = try childSync(context, server: server, notes: notes, serial: false)
        }
        await own?.stop()
        progress("first-sync: the same \(notes) notes stored with bare SQLite calls, with and without the search index")
        let floor = (
            search: try storeFloor(context, notes: notes, search: true),
            rows: try storeFloor(context, notes: notes, search: false)
        )
        return Measured(
            notes: notes, curl: curl, serial: serial, serialWall: serialWall, readAhead: ahead, floor: floor)
    }

    private static func rows(_ size: Measured, smallest: Measured) -> [BenchRow] {
        let count = Figure.count(size.notes)
        let serial = size.serial
        var rows: [BenchRow] = []
        if let (report, wall) = size.readAhead {
            rows.append(
                syncRow(
                    size, "reading ahead", report, target: true,
                    note: "the engine's default; child process wall time \(Figure.seconds(wall)) including "
                        + "start-up; \(pageLimit) notes a page; the next page fetched, decoded and opened (on "
                        + "every core) while the current one is stored (readAhead: true); the child's CPU "
                        + cpu(report) + "; peak memory " + mebibytes(report.peakKiB)))
        }
        rows.append(
            syncRow(
                size, "one page after the other", serial, target: size.readAhead == nil,
                note: "readAhead: false; child wall time \(Figure.seconds(size.serialWall)) "
                    + "including start-up; the child's CPU \(cpu(serial)); \(pageLimit) notes a page"))
        rows.append(floorRow(size))
        guard let peak = serial.peakKiB else {
            rows.append(
                .notMeasured(
                    name, "peak memory of the syncing device at \(count) notes",
                    reason: "no /proc/self/status here", target: "< 150 MB"))
            return rows
        }
        let megabytes = Double(peak) / 1024
        if size.notes == smallest.notes {
            rows.append(
                BenchRow(
                    benchmark: name, label: "peak memory of the device syncing \(count) notes (VmHWM)",
                    measured: String(format: "%.1f MiB", megabytes), target: "< 150 MB", met: megabytes < 150))
        } else if let base = smallest.serial.peakKiB {
            let growth = Double(peak) / Double(base)
            rows.append(
                BenchRow(
                    benchmark: name, label: "peak memory of the device syncing \(count) notes (VmHWM)",
                    measured: String(format: "%.1f MiB", megabytes),
                    baseline: String(format: "%.1f MiB at %@ notes", Double(base) / 1024, Figure.count(smallest.notes)),
                    ratio: growth, target: "flat (< 1.5×), < 150 MB", met: growth < 1.5 && megabytes < 150))
        }
        return rows
    }

    /// The bare store's row beside curl's time: what SQLite alone takes to store what the sync
    /// stores, with what it takes without the search index, and the sync's multiple of it.
    private static func floorRow(_ size: Measured) -> BenchRow {
        let floor = size.floor
        let sync = size.readAhead?.report ?? size.serial
        return BenchRow(
            benchmark: name,
            label: "bare SQLite store of the same \(Figure.count(size.notes)) notes (the floor under a sync)",
            measured: String(format: "%.2f s", floor.search.seconds),
            baseline: size.curl.map { String(format: "%.2f s curl", $0.seconds) } ?? "curl unavailable",
            ratio: size.curl.map { floor.search.seconds / $0.seconds },
            note: "no decoding, no decryption, no Swift layer: each page of \(pageLimit) one transaction "
                + "of bare C calls, rows keyed by id, the list's index and the FTS5 search index over "
                + "title and body (CPU " + String(format: "%.2f s", floor.search.cpuSeconds)
                + "); without the search index "
                + String(format: "%.2f s (CPU %.2f s)", floor.rows.seconds, floor.rows.cpuSeconds)
                + "; the sync above took " + String(format: "%.2f×", sync.seconds / floor.search.seconds)
                + " the floor")
    }

    /// Stores the run's notes with bare SQLite calls in a child process (``StoreFloorChild``).
    private static func storeFloor(_ context: BenchContext, notes: Int, search: Bool) throws
        -> StoreFloorChild.Report
    {
        let directory = try context.directory("store-floor")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try Child.report(
            StoreFloorChild.Report.self, of: "store-floor",
            [StoreFloorChild.subcommand, directory.path, "\(notes)", "\(pageLimit)", search ? "search" : "rows"])
    }

    /// A sync's row beside curl's time; with `target`, the "within 2× curl".
    private static func syncRow(
        _ size: Measured, _ how: String, _ report: SyncChild.Report, target: Bool, note: String
    ) -> BenchRow {
        let ratio = size.curl.map { report.seconds / $0.seconds }
        let met = target ? ratio.map { $0 <= 2 } : nil
        return BenchRow(
            benchmark: name, label: "first sync of \(Figure.count(size.notes)) notes of 2 KB, \(how)",
            measured: String(format: "%.2f s", report.seconds),
            baseline: size.curl.map { String(format: "%.2f s curl (%@)", $0.seconds, Figure.bytes($0.bytes)) }
                ?? "curl unavailable",
            ratio: ratio, target: target ? "≤ 2× curl" : "-", met: met,
            note: note + (met == false ? "; see docs/benchmarks.md for where the time goes" : ""))
    }

    /// The child's CPU time (user and system, every thread), steadier than its wall time here.
    private static func cpu(_ report: SyncChild.Report) -> String {
        report.cpuSeconds.map { String(format: "%.2f s", $0) } ?? "unknown"
    }

    private static func mebibytes(_ kib: Int?) -> String {
        kib.map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "unknown"
    }

    /// Runs the syncing device in a fresh directory and returns its report and wall time.
    private static func childSync(_ context: BenchContext, server: BenchServer, notes: Int, serial: Bool)
        throws -> (SyncChild.Report, Duration)
    {
        let directory = try context.directory(serial ? "fresh-device-serial" : "fresh-device")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (report, wall) = try measure {
            try Child.report(
                SyncChild.Report.self, of: "sync",
                [
                    SyncChild.subcommand, server.baseURL.absoluteString, server.token,
                    server.codec.hexKey, directory.path, "\(pageLimit)",
                ] + (serial ? ["serial"] : []))
        }
        if let failure = report.failure { throw BenchFailure("the child's sync failed: \(failure)") }
        guard report.received == notes else {
            throw BenchFailure("the child received \(report.received) notes, expected \(notes)")
        }
        return (report, wall)
    }
}
