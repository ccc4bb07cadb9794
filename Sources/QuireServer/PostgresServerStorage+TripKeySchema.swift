import QuirePostgres

extension PostgresServerStorage {
    /// Migration: a trip's keys rotate, as the SQLite store's `rotateTripKeys` (see it for each
    /// column).
    static func rotateTripKeys(_ db: PostgresConnection) throws {
        try db.execute(
            """
            ALTER TABLE trips ADD COLUMN key_epoch bigint NOT NULL DEFAULT 1;
            ALTER TABLE trips ADD COLUMN rekey_due boolean NOT NULL DEFAULT false;
            ALTER TABLE trip_members ADD COLUMN key_epoch bigint NOT NULL DEFAULT 1;
            ALTER TABLE trip_members ADD COLUMN key_sealed boolean NOT NULL DEFAULT false;
            ALTER TABLE trip_invites ADD COLUMN key_epoch bigint NOT NULL DEFAULT 1;
            ALTER TABLE trip_links ADD COLUMN key_epoch bigint NOT NULL DEFAULT 1;

            CREATE TABLE trip_key_chain (
                trip_id text NOT NULL REFERENCES trips (trip_id) ON DELETE CASCADE,
                epoch bigint NOT NULL,
                previous_key text NOT NULL,
                created_at bigint NOT NULL,
                PRIMARY KEY (trip_id, epoch)
            );
            """)
    }

    /// Migration: `trip_key_chain.key_check`, as the SQLite store's `checkEachTripKey`.
    static func checkEachTripKey(_ db: PostgresConnection) throws {
        try db.execute("ALTER TABLE trip_key_chain ADD COLUMN key_check text;")
    }

    /// Migration: `trip_fields.author_id`, as the SQLite store's `rememberEachTripFieldsAuthor`.
    static func rememberEachTripFieldsAuthor(_ db: PostgresConnection) throws {
        try db.execute("ALTER TABLE trip_fields ADD COLUMN author_id bigint;")
    }
}
