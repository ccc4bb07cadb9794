import QuireSQLite

extension SQLiteServerStorage {
    /// Migration 17: a trip's keys rotate (issue 15). The server holds no key it can open.
    /// - `trips.key_epoch`: the trip's current key epoch (1 until the first rotation);
    ///   `trips.rekey_due`: a member left or was removed since, so an owner's device rotates.
    /// - `trip_members.key_epoch`, `key_sealed`: the epoch of the key in `wrapped_key`, and
    ///   whether a rotation sealed it to the member's public key (1) rather than the member
    ///   wrapping it with its notes key (0).
    /// - `trip_invites.key_epoch`, `trip_links.key_epoch`: the epoch of the key they seal.
    /// - `trip_key_chain`: for each epoch after the first, the previous epoch's key sealed with it.
    static func rotateTripKeys(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE trips ADD COLUMN key_epoch INTEGER NOT NULL DEFAULT 1;
            ALTER TABLE trips ADD COLUMN rekey_due INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE trip_members ADD COLUMN key_epoch INTEGER NOT NULL DEFAULT 1;
            ALTER TABLE trip_members ADD COLUMN key_sealed INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE trip_invites ADD COLUMN key_epoch INTEGER NOT NULL DEFAULT 1;
            ALTER TABLE trip_links ADD COLUMN key_epoch INTEGER NOT NULL DEFAULT 1;

            CREATE TABLE trip_key_chain (
                trip_id TEXT NOT NULL REFERENCES trips(trip_id) ON DELETE CASCADE,
                epoch INTEGER NOT NULL,
                previous_key TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (trip_id, epoch)
            ) WITHOUT ROWID;
            """)
    }

    /// Migration 21: `trip_key_chain.key_check`, the check of each rotated key
    /// (``TripKeyCheckText``), so an ops request sealed with another key of the current epoch is
    /// refused (NULL for rotations from before, which are not checked).
    static func checkEachTripKey(_ db: SQLiteConnection) throws {
        try db.execute("ALTER TABLE trip_key_chain ADD COLUMN key_check TEXT;")
    }

    /// Migration 22: `trip_fields.author_id`, the account whose request wrote each value (NULL for
    /// membership entries and for values from before), listed as `author`: a device holding a
    /// value of someone who left sends it again when a restored server forgot it (issue 15).
    static func rememberEachTripFieldsAuthor(_ db: SQLiteConnection) throws {
        try db.execute("ALTER TABLE trip_fields ADD COLUMN author_id INTEGER;")
    }
}
