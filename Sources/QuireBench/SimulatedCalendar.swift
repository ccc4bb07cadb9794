import Foundation
import QuireLock

/// The server's clock in the history-storage benchmark: a date the benchmark sets, so sixty days
/// of edits and pruning pass in minutes. Read from the server's tasks, set from the benchmark's.
final class SimulatedCalendar: Sendable {
    /// 2026-01-01T00:00:00Z: midnight UTC, where the retention policy's days begin.
    static let start = Date(timeIntervalSince1970: 1_767_225_600)
    /// The day's first edit, and the time between two edits.
    static let firstEdit: TimeInterval = 8 * 3600
    static let editInterval: TimeInterval = 1_800
    /// When the daily pruning runs, after midnight.
    static let pruneTime: TimeInterval = 3 * 3600

    private let current = Locked(SimulatedCalendar.start)

    var now: Date { current.withLock { $0 } }

    func set(_ date: Date) {
        current.withLock { $0 = date }
    }

    /// Edit `edit` (from 0) of day `day`: 08:00, 08:30, … UTC.
    static func edit(_ edit: Int, ofDay day: Int) -> Date {
        start.addingTimeInterval(Double(day) * 86_400 + firstEdit + Double(edit) * editInterval)
    }

    /// The pruning that follows day `day`: 03:00 UTC the next morning.
    static func pruning(afterDay day: Int) -> Date {
        start.addingTimeInterval(Double(day + 1) * 86_400 + pruneTime)
    }
}
