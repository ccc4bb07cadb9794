import QuirePostgres

extension PostgresServerStorage {
    /// Migration: sharing trips, as the SQLite store's `storeSharing` (see it for each table).
    static func storeSharing(_ db: PostgresConnection) throws {
        try db.execute(
            """
            CREATE TABLE sharing_keys (
                account_id bigint PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                public_key text NOT NULL,
                wrapped_private_key text NOT NULL,
                updated_at bigint NOT NULL
            );

            CREATE TABLE trip_invites (
                invite_id text PRIMARY KEY,
                trip_id text NOT NULL REFERENCES trips (trip_id) ON DELETE CASCADE,
                inviter_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                invitee_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                role text NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
                sealed_key text NOT NULL,
                created_at bigint NOT NULL,
                UNIQUE (trip_id, invitee_id)
            );
            CREATE INDEX trip_invites_by_invitee ON trip_invites (invitee_id, created_at);

            CREATE TABLE trip_departures (
                trip_id text NOT NULL REFERENCES trips (trip_id) ON DELETE CASCADE,
                account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                role text NOT NULL,
                feed_seq bigint NOT NULL,
                left_at bigint NOT NULL,
                PRIMARY KEY (trip_id, account_id)
            );
            CREATE UNIQUE INDEX trip_departures_by_feed ON trip_departures (account_id, feed_seq);

            CREATE TABLE trip_links (
                link_id text PRIMARY KEY,
                trip_id text NOT NULL REFERENCES trips (trip_id) ON DELETE CASCADE,
                creator_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                role text NOT NULL CHECK (role IN ('editor', 'viewer')),
                sealed_key text NOT NULL,
                token_hash text NOT NULL,
                expires_at bigint NOT NULL,
                uses_left bigint NOT NULL,
                revoked boolean NOT NULL DEFAULT false,
                created_at bigint NOT NULL
            );
            CREATE INDEX trip_links_by_trip ON trip_links (trip_id);
            """)
    }
}
