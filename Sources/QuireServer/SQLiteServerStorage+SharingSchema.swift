import QuireSQLite

extension SQLiteServerStorage {
    /// Migration: sharing trips (issue 15).
    ///
    /// - `sharing_keys`: each account's X25519 public key and its private key sealed by the
    ///   device with the notes key (the server cannot open it).
    /// - `trip_invites`: an owner's invitation of an account, with the trip key sealed to the
    ///   invitee's public key; one per (trip, invitee), deleted when accepted or declined.
    /// - `trip_departures`: a member removed or gone, kept so its trips feed shows the trip as
    ///   removed at `feed_seq`; deleted when it joins again.
    /// - `trip_links`: invite links, each with the trip key sealed with a key from the link's
    ///   secret (which the server never gets), the hash of its join token, an expiry and the
    ///   uses left.
    static func storeSharing(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE sharing_keys (
                account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
                public_key TEXT NOT NULL,
                wrapped_private_key TEXT NOT NULL,
                updated_at INTEGER NOT NULL
            );

            CREATE TABLE trip_invites (
                invite_id TEXT PRIMARY KEY,
                trip_id TEXT NOT NULL REFERENCES trips(trip_id) ON DELETE CASCADE,
                inviter_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                invitee_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
                sealed_key TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                UNIQUE (trip_id, invitee_id)
            ) WITHOUT ROWID;
            CREATE INDEX trip_invites_by_invitee ON trip_invites (invitee_id, created_at);

            CREATE TABLE trip_departures (
                trip_id TEXT NOT NULL REFERENCES trips(trip_id) ON DELETE CASCADE,
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                role TEXT NOT NULL,
                feed_seq INTEGER NOT NULL,
                left_at INTEGER NOT NULL,
                PRIMARY KEY (trip_id, account_id)
            ) WITHOUT ROWID;
            CREATE UNIQUE INDEX trip_departures_by_feed ON trip_departures (account_id, feed_seq);

            CREATE TABLE trip_links (
                link_id TEXT PRIMARY KEY,
                trip_id TEXT NOT NULL REFERENCES trips(trip_id) ON DELETE CASCADE,
                creator_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                role TEXT NOT NULL CHECK (role IN ('editor', 'viewer')),
                sealed_key TEXT NOT NULL,
                token_hash TEXT NOT NULL,
                expires_at INTEGER NOT NULL,
                uses_left INTEGER NOT NULL,
                revoked INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX trip_links_by_trip ON trip_links (trip_id);
            """)
    }
}
