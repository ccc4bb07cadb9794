import Foundation

/// Which earlier versions of a note the server keeps: the retention policy, as a pure rule.
///
/// Every version for ``keepEvery`` (24 hours by default), then the last version of each day until
/// ``keepDaily`` (30 days), then the last of each week until ``keepWeekly`` (365 days), then none;
/// and at most ``accountBytes`` of stored versions per account (256 MiB), the oldest pruned first.
/// A deleted note's last text is kept whatever its age until its tombstone is purged, so the
/// trash can bring it back. Ages count from when a version was saved; days and weeks are UTC.
///
/// Two devices, one note: the phone types all morning (40 versions), the laptop fixes a typo the
/// next week. A day later the morning's 40 versions are down to the morning's last one; a month
/// later that one stands for its week.
public struct HistoryRetention: Sendable, Equatable {
    /// Every version younger than this is kept.
    public var keepEvery: TimeInterval = 24 * 3600
    /// Until this age, the last version of each day is kept.
    public var keepDaily: TimeInterval = 30 * 86_400
    /// Until this age, the last version of each week is kept; older ones go.
    public var keepWeekly: TimeInterval = 365 * 86_400
    /// The most payload bytes of earlier versions one account keeps; the oldest go first.
    public var accountBytes: Int = 256 * 1024 * 1024

    public init(
        keepEvery: TimeInterval = 24 * 3600, keepDaily: TimeInterval = 30 * 86_400,
        keepWeekly: TimeInterval = 365 * 86_400, accountBytes: Int = 256 * 1024 * 1024
    ) {
        self.keepEvery = keepEvery
        self.keepDaily = keepDaily
        self.keepWeekly = keepWeekly
        self.accountBytes = accountBytes
    }

    /// One stored earlier version, as the rule sees it.
    public struct Version: Sendable, Equatable {
        public var number: Int
        public var savedAt: Date

        public init(number: Int, savedAt: Date) {
            self.number = number
            self.savedAt = savedAt
        }
    }

    /// The numbers of `versions` (one note's earlier versions, any order) that the policy lets go
    /// at `now`. `noteDeleted`: the note is a tombstone, whose newest stored version (the trash's
    /// text) is always kept. Same input, same answer.
    public func versionsToPrune(_ versions: [Version], now: Date, noteDeleted: Bool) -> [Int] {
        let newestFirst = versions.sorted { ($0.savedAt, $0.number) > ($1.savedAt, $1.number) }
        var buckets: Set<Int64> = []
        var pruned: [Int] = []
        for (index, version) in newestFirst.enumerated() {
            if index == 0, noteDeleted { continue }
            let age = now.timeIntervalSince(version.savedAt)
            if age < keepEvery { continue }
            let seconds = Int64(version.savedAt.timeIntervalSince1970.rounded(.down))
            let bucket: Int64
            if age < keepDaily {
                bucket = Self.floorDivide(seconds, 86_400) * 2
            } else if age < keepWeekly {
                bucket = Self.floorDivide(seconds, 7 * 86_400) * 2 + 1
            } else {
                pruned.append(version.number)
                continue
            }
            // Newest first: the first version met in a day or week is that period's last.
            if !buckets.insert(bucket).inserted { pruned.append(version.number) }
        }
        return pruned
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// The policy in words, for `quire-server --help` and logs.
    public var summary: String {
        "every version for \(Self.duration(keepEvery)), then one a day until \(Self.duration(keepDaily)), "
            + "then one a week until \(Self.duration(keepWeekly)); at most "
            + "\(accountBytes / (1024 * 1024)) MiB per account, oldest first"
    }

    private static func duration(_ seconds: TimeInterval) -> String {
        seconds.truncatingRemainder(dividingBy: 86_400) == 0
            ? "\(Int(seconds / 86_400)) days" : "\(Int(seconds / 3600)) hours"
    }
}
