import Foundation

/// When a change whose sends keep failing (a 500 for that one note, a connection broken by its
/// body) is tried again, and when it counts as stuck.
///
/// Per change, so one failing note never holds back the others: the engine moves on to the next
/// change, and a failed change waits its turn. The first failure waits for nothing (a lost reply is
/// resent by the next run at once); later ones back off exponentially up to five minutes.
public enum ChangeRetry {
    /// After this many failed sends the note shows as stuck, with the last error; it is still tried.
    public static let stuckAfterAttempts = 5
    /// The longest wait between two tries of one change.
    public static let maximumDelay: TimeInterval = 300

    /// How long to wait before trying a change again after `attempts` failed sends.
    public static func delay(afterAttempts attempts: Int) -> TimeInterval {
        guard attempts > 1 else { return 0 }
        return min(maximumDelay, pow(2, Double(min(attempts - 1, 16))))
    }
}
