import QuireSQLite

extension SQLiteServerStorage {
    /// Migration 7: trips (seed 002).
    ///
    /// - `trips`: one row per trip; `revision` is its newest revision (per trip, gap-free, from 1),
    ///   `seq` the server-wide sequence number of the change that made it, `deleted` a copy of the
    ///   trip's own `deleted` field for the feeds, and `purged_revision` the newest revision a
    ///   purge deleted (a changes cursor below it gets 410).
    /// - `trip_members`: who may see the trip, their role, the trip key wrapped for them, and
    ///   their trips feed position (`feed_seq`), moved to the trip's `seq` on every change.
    ///   Sharing (issue 15) adds members and editors here; removals will be rows kept as entries.
    /// - `trip_fields`: one row per field of the trip (`item_id` '') or of an item, at its newest
    ///   sealed value, hash, revision and `seq`. An item is its fields: photos (issue 16) attach
    ///   as more fields of the item. Revisions are unique in a trip, so the index by
    ///   (trip, revision) is the trip's change log.
    /// - `trip_op_requests`: the answer to each ops request by (account, trip, op id), replayed
    ///   byte for byte; pruned with the tombstone retention like `idempotency_records`.
    static func storeTrips(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE trips (
                trip_id TEXT PRIMARY KEY,
                revision INTEGER NOT NULL DEFAULT 0,
                seq INTEGER NOT NULL,
                deleted INTEGER NOT NULL DEFAULT 0,
                purged_revision INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL
            ) WITHOUT ROWID;

            CREATE TABLE trip_members (
                trip_id TEXT NOT NULL REFERENCES trips(trip_id) ON DELETE CASCADE,
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
                wrapped_key TEXT NOT NULL,
                feed_seq INTEGER NOT NULL,
                joined_at INTEGER NOT NULL,
                PRIMARY KEY (trip_id, account_id)
            ) WITHOUT ROWID;
            CREATE UNIQUE INDEX trip_members_by_feed ON trip_members (account_id, feed_seq);

            CREATE TABLE trip_fields (
                trip_id TEXT NOT NULL REFERENCES trips(trip_id) ON DELETE CASCADE,
                item_id TEXT NOT NULL,
                field TEXT NOT NULL,
                value TEXT,
                value_hash TEXT,
                revision INTEGER NOT NULL,
                seq INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (trip_id, item_id, field)
            ) WITHOUT ROWID;
            CREATE UNIQUE INDEX trip_fields_by_revision ON trip_fields (trip_id, revision);
            CREATE INDEX trip_tombstones_by_age ON trip_fields (updated_at)
                WHERE field = 'deleted' AND value = 'true';

            CREATE TABLE trip_op_requests (
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                trip_id TEXT NOT NULL,
                op_id TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                response_body BLOB NOT NULL,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (account_id, trip_id, op_id)
            ) WITHOUT ROWID;
            CREATE INDEX trip_op_requests_by_age ON trip_op_requests (created_at);
            """)
    }

    /// Migration 11: an item's tombstone keeps the newest revision of the item its deleter had
    /// seen (``TripFieldState/seenRevision``), so an edit the delete did not see is offered back
    /// to its device. NULL for every other field, and for tombstones written before.
    static func keepWhatEachDeleteSaw(_ db: SQLiteConnection) throws {
        try db.execute("ALTER TABLE trip_fields ADD COLUMN seen_revision INTEGER")
    }
}
