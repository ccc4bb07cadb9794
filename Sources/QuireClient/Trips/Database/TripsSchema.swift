import Foundation
import QuireSQLite

/// The trips database's schema (seed 002 §1), as numbered migrations (`PRAGMA user_version`
/// counts them). Never edit a migration that has shipped: add the next one.
package enum TripsSchema {
    package static var migrations: [SQLiteMigrator.Migration] {
        [
            createTables, rememberOwnWrites, keepWhatEachDeleteSaw, rememberMembersKeys, keepEveryKeyEpoch,
            queuePhotos, rememberDepartures, rememberRemovals, rememberAuthors,
            setAsideForgottenValues, waitForKeyWork,
        ]
    }

    // MARK: - 5: every key a trip has had

    /// A trip's key rotates when a member leaves (issue 15). `trips.key` stays the current key,
    /// now of epoch `trips.key_epoch`; `trip_keys` keeps the older ones, which open the values
    /// sealed before each rotation.
    static func keepEveryKeyEpoch(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE trips ADD COLUMN key_epoch INTEGER NOT NULL DEFAULT 1;
            CREATE TABLE trip_keys (
                trip_id TEXT NOT NULL REFERENCES trips (id) ON DELETE CASCADE,
                epoch   INTEGER NOT NULL,
                key     BLOB NOT NULL,
                PRIMARY KEY (trip_id, epoch)
            );
            """)
    }

    // MARK: - 4: the public keys of the people trips are shared with

    /// `known_keys`: each person's public key as this device first saw it (inviting them, being
    /// invited by them, or listing a trip's members), so a key that changes later is shown as a
    /// warning instead of taken (issue 15).
    static func rememberMembersKeys(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE known_keys (
                username   TEXT PRIMARY KEY NOT NULL,
                public_key TEXT NOT NULL,
                seen_at    REAL NOT NULL
            );
            """)
    }

    // MARK: - 3: what an item's delete had seen, and what a conflict's own value started from

    /// - `fields.seen_revision`: for an item's tombstone, the newest revision of the item its
    ///   deleting device had seen (the server's `seenRevision`), so an answer for this device's
    ///   edit that comes after the delete arrived (a lost reply, resent) can tell whether the
    ///   delete saw it. NULL elsewhere, and for tombstones pulled before: taken as having seen all.
    /// - `conflicts.mine_base`: the value this device's own value started from, so a conflict
    ///   that joins an item's delete conflict is asked again when the item is restored, not
    ///   settled by the restore (seed 7288). NULL for conflicts stored before.
    static func keepWhatEachDeleteSaw(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE fields ADD COLUMN seen_revision INTEGER;
            ALTER TABLE conflicts ADD COLUMN mine_base TEXT;
            """)
    }

    // MARK: - 2: this device's own acknowledged writes, and the position they left each trip at

    /// - `fields.mine`: 1 when the confirmed value is this device's own write, acknowledged; 0
    ///   when it was pulled. An item's delete that had not seen an own write offers it back to
    ///   restore; a snapshot that lacks one (a server restored from a backup) sends it again.
    ///   `fields.mine_base`: the value such a write replaced, to tell, after a restore, the value
    ///   it overwrote come back from one another device wrote since.
    /// - `trips.known_position`: the positions (opaque, from the ops answers, comma-separated)
    ///   acknowledged requests left the trip at, sent as `known=` on changes pulls until one
    ///   finishes; NULL once the server has shown it holds them all.
    static func rememberOwnWrites(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE fields ADD COLUMN mine INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE fields ADD COLUMN mine_base TEXT;
            ALTER TABLE trips ADD COLUMN known_position TEXT;
            """)
    }

    // MARK: - 1: trips, confirmed values, the outbox, conflicts, sync state

    /// Item id `''` stands for the trip's own fields (title, dates, notes, deleted) wherever a
    /// table keys by (trip, item, field).
    static func createTables(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE trips (
                id              TEXT PRIMARY KEY NOT NULL,
                -- The trip's key (32 bytes). The device holds its trips' values in plain text
                -- anyway, as it does notes; the server only ever gets it wrapped.
                key             BLOB NOT NULL,
                role            TEXT NOT NULL DEFAULT 'owner',
                -- The account's feed says the trip was deleted.
                deleted         INTEGER NOT NULL DEFAULT 0,
                -- The server has the trip (created by this device, or listed by the feed).
                on_server       INTEGER NOT NULL DEFAULT 0,
                -- Where the trip's changes continue; NULL: the next pull takes the snapshot.
                cursor          TEXT,
                -- The trip's newest revision as the account's feed last showed it, and the newest
                -- this device has pulled: a trip whose feed revision is ahead is pulled.
                feed_revision   INTEGER NOT NULL DEFAULT 0,
                pulled_revision INTEGER NOT NULL DEFAULT 0,
                created_at      REAL NOT NULL
            );

            CREATE TABLE items (
                id      TEXT PRIMARY KEY NOT NULL,
                trip_id TEXT NOT NULL REFERENCES trips (id) ON DELETE CASCADE
            );
            CREATE INDEX items_by_trip ON items (trip_id);

            -- Server-confirmed values, one per field, with the trip revision that wrote them.
            CREATE TABLE fields (
                trip_id  TEXT NOT NULL REFERENCES trips (id) ON DELETE CASCADE,
                item_id  TEXT NOT NULL,
                field    TEXT NOT NULL,
                value    TEXT,
                revision INTEGER NOT NULL,
                PRIMARY KEY (trip_id, item_id, field)
            );

            -- One row per waiting field change, in the order made (seq). A row is unsent while
            -- request_id is NULL (later edits of its field fold into it), and frozen once it has
            -- one: its sealed value, hash and base then never change, so a resend is identical.
            CREATE TABLE outbox (
                seq             INTEGER PRIMARY KEY AUTOINCREMENT,
                op_id           TEXT NOT NULL UNIQUE,
                trip_id         TEXT NOT NULL REFERENCES trips (id) ON DELETE CASCADE,
                item_id         TEXT NOT NULL,
                field           TEXT NOT NULL,
                value           TEXT,
                base_revision   INTEGER NOT NULL,
                -- The confirmed value at base_revision: the ancestor of a notes merge.
                base_value      TEXT,
                request_id      TEXT,
                sealed_value    TEXT,
                value_hash      TEXT,
                rejected        INTEGER NOT NULL DEFAULT 0,
                rejected_reason TEXT,
                attempts        INTEGER NOT NULL DEFAULT 0,
                retry_at        REAL,
                last_error      TEXT,
                created_at      REAL NOT NULL
            );
            CREATE INDEX outbox_by_field ON outbox (trip_id, item_id, field);
            CREATE INDEX outbox_by_request ON outbox (request_id) WHERE request_id IS NOT NULL;

            -- A value of this device's the server did not take, beside the server's, until the
            -- person chooses. For an edit that met a delete (field 'deleted'), edited_values holds
            -- the item's edited fields as JSON, for restore.
            CREATE TABLE conflicts (
                trip_id        TEXT NOT NULL REFERENCES trips (id) ON DELETE CASCADE,
                item_id        TEXT NOT NULL,
                field          TEXT NOT NULL,
                mine           TEXT,
                theirs         TEXT,
                their_revision INTEGER NOT NULL,
                edited_values  TEXT,
                created_at     REAL NOT NULL,
                PRIMARY KEY (trip_id, item_id, field)
            );

            -- Cursors by scope: 'trips' is the account's trips feed.
            CREATE TABLE sync_state (
                scope  TEXT PRIMARY KEY NOT NULL,
                cursor TEXT
            );

            -- The bound account and the engine's run record (JSON).
            CREATE TABLE meta (
                key   TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            );
            """)
    }
}
