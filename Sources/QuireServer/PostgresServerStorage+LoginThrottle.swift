import Foundation
import QuirePostgres

/// The login throttle's counters in the `login_failures` table, so every instance on the
/// database throttles together and a restart keeps an attacker's delay.
extension PostgresServerStorage: LoginThrottleStore {
    /// One transaction holding a transaction-level advisory lock per key (taken in sorted order,
    /// so two admissions cannot deadlock) from the read to the count: admissions of one key on
    /// any instance run one after another, even before the key has a row. Also deletes the keys
    /// forgotten by now.
    public func admitLoginAttempt(
        keys: [String], at time: Date, forgetBefore: Date,
        decide: @escaping @Sendable ([LoginFailures?]) -> TimeInterval
    ) async throws -> TimeInterval {
        let forget = forgetBefore.storedMilliseconds
        return try await transaction { db in
            for key in keys.sorted() {
                try db.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 7))", key)
            }
            let counted = try keys.map { key in
                try db.queryFirst(
                    "SELECT failures, latest FROM login_failures WHERE key = $1 AND latest > $2", key, forget
                ) { LoginFailures(count: try $0.int(0), latest: Date(storedMilliseconds: try $0.int64(1))) }
            }
            let wait = decide(counted)
            guard wait <= 0 else { return wait }
            try db.query("DELETE FROM login_failures WHERE latest <= $1", forget)
            for key in keys {
                try db.query(
                    """
                    INSERT INTO login_failures (key, failures, latest) VALUES ($1, 1, $2)
                    ON CONFLICT (key) DO UPDATE SET failures = login_failures.failures + 1,
                        latest = excluded.latest
                    """, key, time.storedMilliseconds)
            }
            return wait
        }
    }

    public func loginSucceeded(forgetting: String, takingBackFrom: String?) async throws {
        try await transaction { db in
            try db.query("DELETE FROM login_failures WHERE key = $1", forgetting)
            guard let takingBackFrom else { return }
            try db.query("UPDATE login_failures SET failures = failures - 1 WHERE key = $1", takingBackFrom)
            try db.query("DELETE FROM login_failures WHERE key = $1 AND failures <= 0", takingBackFrom)
        }
    }

    /// Migration: the login throttle's counters, as the SQLite store's `keepLoginFailures`.
    static func keepLoginFailures(_ db: PostgresConnection) throws {
        try db.execute(
            """
            CREATE TABLE login_failures (
                key text PRIMARY KEY,
                failures integer NOT NULL,
                latest bigint NOT NULL
            );
            CREATE INDEX login_failures_by_latest ON login_failures (latest);
            """)
    }
}
