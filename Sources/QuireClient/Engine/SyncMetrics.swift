import Foundation

/// The engine's counters (seed 000's production notes): save-to-acknowledgement latency, sync
/// failures, conflict rate, full resyncs. Kept in the status row across runs and processes. Never
/// holds note text, titles or keys.
public struct SyncMetrics: Hashable, Sendable, Codable {
    public var runs = 0
    public var failedRuns = 0
    public var fullResyncs = 0
    public var changesAcknowledged = 0
    public var conflictCopies = 0
    public var merges = 0
    public var editsBeatDeletes = 0
    public var undecryptable = 0
    /// Seconds from a change's first save to the server's acknowledgement, newest last.
    public var recentAckLatencies: [Double] = []

    /// How many latencies are kept for the percentiles.
    static let latencyWindow = 200

    public init() {}

    /// Decodes the stored JSON; an absent or unreadable value starts from zero (metrics are
    /// informational and never block a sync).
    public init(json: String?) {
        guard let json, let value = try? JSONDecoder().decode(Self.self, from: Data(json.utf8)) else {
            self.init()
            return
        }
        self = value
    }

    public var json: String {
        let data = (try? JSONEncoder().encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    mutating func record(_ report: SyncReport) {
        runs += 1
        if report.failure != nil { failedRuns += 1 }
        if report.fullResync { fullResyncs += 1 }
        conflictCopies += report.conflictCopies
        merges += report.merged
        editsBeatDeletes += report.editsBeatDeletes
        undecryptable += report.undecryptable
    }

    mutating func recordAcknowledgement(latency: TimeInterval) {
        changesAcknowledged += 1
        recentAckLatencies.append(max(latency, 0))
        if recentAckLatencies.count > Self.latencyWindow {
            recentAckLatencies.removeFirst(recentAckLatencies.count - Self.latencyWindow)
        }
    }

    /// Median save-to-acknowledgement latency of the recent window, in seconds.
    public var medianAckLatency: Double? { percentile(0.5) }
    public var p99AckLatency: Double? { percentile(0.99) }

    /// Conflicts (merged or copied) per acknowledged change.
    public var conflictRate: Double {
        changesAcknowledged == 0 ? 0 : Double(conflictCopies + merges) / Double(changesAcknowledged)
    }

    private func percentile(_ fraction: Double) -> Double? {
        guard !recentAckLatencies.isEmpty else { return nil }
        let sorted = recentAckLatencies.sorted()
        let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))
        return sorted[index]
    }
}
