import Foundation
import QuireSQLite

/// The login throttle's counters in the `login_failures` table (migration 20), so every server
/// process on the file throttles together and a restart keeps an attacker's delay.
extension SQLiteServerStorage: LoginThrottleStore {
    /// One `BEGIN IMMEDIATE` transaction: the file's write lock is held from the read to the
    /// count, so no other process's admission interleaves. Also deletes the keys forgotten by now.
    public func admitLoginAttempt(
        keys: [String], at time: Date, forgetBefore: Date,
        decide: @escaping @Sendable ([LoginFailures?]) -> TimeInterval
    ) throws -> TimeInterval {
        let db = try open()
        let forget = forgetBefore.storedMilliseconds
        return try db.transaction {
            let counted = try keys.map { key in
                try db.queryFirst(
                    "SELECT failures, latest FROM login_failures WHERE key = ? AND latest > ?", key, forget
                ) { LoginFailures(count: Int($0.int64(0)), latest: Date(storedMilliseconds: $0.int64(1))) }
            }
            let wait = decide(counted)
            guard wait <= 0 else { return wait }
            try db.run("DELETE FROM login_failures WHERE latest <= ?", forget)
            for key in keys {
                try db.run(
                    """
                    INSERT INTO login_failures (key, failures, latest) VALUES (?, 1, ?)
                    ON CONFLICT (key) DO UPDATE SET failures = failures + 1, latest = excluded.latest
                    """, key, time.storedMilliseconds)
            }
            return wait
        }
    }

    public func loginSucceeded(forgetting: String, takingBackFrom: String?) throws {
        let db = try open()
        try db.transaction {
            try db.run("DELETE FROM login_failures WHERE key = ?", forgetting)
            guard let takingBackFrom else { return }
            try db.run("UPDATE login_failures SET failures = failures - 1 WHERE key = ?", takingBackFrom)
            try db.run("DELETE FROM login_failures WHERE key = ? AND failures <= 0", takingBackFrom)
        }
    }

    /// Migration 20: the login throttle's counters, one row per key (see ``LoginThrottle``).
    static func keepLoginFailures(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE login_failures (
                key TEXT PRIMARY KEY,
                failures INTEGER NOT NULL,
                latest INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX login_failures_by_latest ON login_failures (latest);
            """)
    }
}
