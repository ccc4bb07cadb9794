import QuireSQLite

/// Rendering ``ServerMetrics`` in the Prometheus text exposition format 0.0.4
/// (https://prometheus.io/docs/instrumenting/exposition_formats/).
extension ServerMetrics {
    /// The whole exposition: `# HELP` and `# TYPE` before each family, series sorted by their
    /// labels so equal states render equally, histogram buckets cumulative and ending with
    /// `le="+Inf"` (equal to `_count`), and a line feed after the last line.
    /// `longPollWaiters` is the current number of held changes requests; `checkpoints`, the SQLite
    /// store's checkpoints so far (nil on PostgreSQL, or a database in memory).
    func exposition(longPollWaiters: Int, checkpoints: SQLiteBackgroundCheckpoint.Counts? = nil) -> String {
        let snapshot = snapshot()
        var lines: [String] = []

        family(
            &lines, "quire_http_requests_total", type: "counter",
            help: "HTTP requests answered, by route template, method and status code.")
        let requests = snapshot.requests.sorted { lhs, rhs in
            (lhs.key.route, lhs.key.method, lhs.key.status)
                < (rhs.key.route, rhs.key.method, rhs.key.status)
        }
        for (series, count) in requests {
            let labels = Self.labels([
                ("route", series.route), ("method", series.method), ("status", "\(series.status)"),
            ])
            lines.append("quire_http_requests_total\(labels) \(count)")
        }

        let name = "quire_http_request_duration_seconds"
        family(
            &lines, name, type: "histogram",
            help: "Time from receiving a request to its answer, by route template and method.")
        let latencies = snapshot.latencies.sorted { lhs, rhs in
            (lhs.key.route, lhs.key.method) < (rhs.key.route, rhs.key.method)
        }
        for (series, histogram) in latencies {
            let base = [("route", series.route), ("method", series.method)]
            let les = histogram.bounds.map(Self.number) + ["+Inf"]
            for (le, cumulative) in zip(les, histogram.cumulativeCounts) {
                lines.append("\(name)_bucket\(Self.labels(base + [("le", le)])) \(cumulative)")
            }
            lines.append("\(name)_sum\(Self.labels(base)) \(Self.number(histogram.sum))")
            lines.append("\(name)_count\(Self.labels(base)) \(histogram.count)")
        }

        family(
            &lines, "quire_http_requests_in_flight", type: "gauge",
            help: "Requests being handled now, long-polls included.")
        lines.append("quire_http_requests_in_flight \(snapshot.inFlight)")

        family(
            &lines, "quire_longpoll_waiters", type: "gauge",
            help: "Changes requests held open now, waiting for a change.")
        lines.append("quire_longpoll_waiters \(longPollWaiters)")

        if let checkpoints {
            family(
                &lines, "quire_sqlite_checkpoints_total", type: "counter",
                help: "Copies of the SQLite write-ahead log into the database file, by the thread that "
                    + "does them or by the writer when that thread fell behind.")
            lines.append("quire_sqlite_checkpoints_total\(Self.labels([("by", "thread")])) \(checkpoints.background)")
            lines.append("quire_sqlite_checkpoints_total\(Self.labels([("by", "writer")])) \(checkpoints.byWriter)")
            family(
                &lines, "quire_sqlite_checkpoint_failures_total", type: "counter",
                help: "Copies of the SQLite write-ahead log that failed (nothing is lost: the log keeps "
                    + "every commit and grows until a copy succeeds).")
            lines.append("quire_sqlite_checkpoint_failures_total \(checkpoints.failed)")
        }

        family(&lines, "quire_build_info", type: "gauge", help: "The server's version; always 1.")
        lines.append("quire_build_info\(Self.labels([("version", version)])) 1")

        return lines.joined(separator: "\n") + "\n"
    }

    private func family(_ lines: inout [String], _ name: String, type: String, help: String) {
        lines.append("# HELP \(name) \(help)")
        lines.append("# TYPE \(name) \(type)")
    }

    /// `{a="1",b="2"}` with escaped values.
    static func labels(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { "\($0.0)=\"\(escapeLabelValue($0.1))\"" }.joined(separator: ",") + "}"
    }

    /// A float as the format writes it: integral values without a fraction (`1`, `30`), others
    /// in Swift's shortest round-tripping form (`0.0025`), which Go's `ParseFloat` reads.
    static func number(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }
}
