import Foundation

/// One line of the results table: a figure, its same-run baseline, and its target.
struct BenchRow: Codable, Equatable {
    /// Which benchmark produced it (the `--only` name).
    var benchmark: String
    /// What the figure is, e.g. "save at 10,000 notes, median".
    var label: String
    /// The figure as printed, with its unit ("1.84 ms").
    var measured: String
    /// The baseline figure as printed, or "-" when there is none.
    var baseline: String
    /// measured / baseline, when both are numbers of the same unit.
    var ratio: Double?
    /// The target as printed ("ratio ≤ 1.5", "< 50 ms"), or "-".
    var target: String
    /// Whether the target is met; nil when there is no target or nothing was measured.
    var met: Bool?
    /// Why a target was missed, or what to know when reading the figure.
    var note: String?

    init(
        benchmark: String, label: String, measured: String, baseline: String = "-",
        ratio: Double? = nil, target: String = "-", met: Bool? = nil, note: String? = nil
    ) {
        self.benchmark = benchmark
        self.label = label
        self.measured = measured
        self.baseline = baseline
        self.ratio = ratio
        self.target = target
        self.met = met
        self.note = note
    }

    /// A row for a benchmark that could not run, with the reason.
    static func notMeasured(_ benchmark: String, _ label: String, reason: String, target: String = "-")
        -> BenchRow
    {
        BenchRow(
            benchmark: benchmark, label: label, measured: "not yet measured", target: target,
            note: reason)
    }

    var ratioText: String { ratio.map { String(format: "%.2f×", $0) } ?? "-" }

    var metText: String {
        switch met {
        case .some(true): "yes"
        case .some(false): "NO"
        case .none: "-"
        }
    }
}

// MARK: - Formatting figures

enum Figure {
    static func milliseconds(_ duration: Duration) -> String {
        let ms = duration.seconds * 1000
        if ms < 0.1 { return String(format: "%.1f µs", ms * 1000) }
        if ms < 10 { return String(format: "%.3f ms", ms) }
        return String(format: "%.1f ms", ms)
    }

    static func seconds(_ duration: Duration) -> String {
        String(format: "%.2f s", duration.seconds)
    }

    static func bytes(_ count: Int) -> String {
        if count < 10_000 { return "\(count) B" }
        if count < 10_000_000 { return String(format: "%.1f KB", Double(count) / 1000) }
        return String(format: "%.1f MB", Double(count) / 1_000_000)
    }

    static func count(_ value: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.groupingSeparator = ","
        return formatter.string(from: NSNumber(value: value)) ?? "\(value)"
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
