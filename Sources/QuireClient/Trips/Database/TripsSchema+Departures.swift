import Foundation
import QuireSQLite

extension TripsSchema {
    // MARK: - 7: the trips this account left

    /// `departed_trips`: a trip this device's account left, with its membership entry
    /// (`member.<username>`) and that entry's revision in the trip's log when it left. A server
    /// restored from a backup taken before the leave lists the trip again, with that same entry;
    /// the device then leaves again instead of taking the trip back (a join since is a newer
    /// entry). Forgotten when the account joins the trip again.
    static func rememberDepartures(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE departed_trips (
                trip_id       TEXT PRIMARY KEY NOT NULL,
                member_field  TEXT NOT NULL,
                join_revision INTEGER NOT NULL
            );
            """)
    }
}

extension TripsSchema {
    // MARK: - 8: the removals this device saw

    /// `ended_memberships`: a member this device saw leave or be removed from a trip, with the
    /// membership entry that ended (`member.<username>`) and that entry's revision. A server
    /// restored from a backup taken before the removal lists that same entry again; an owner's
    /// device then removes the member again before it sends anything (a join since is a newer
    /// entry). Removals from before this migration are not known: the log keeps the removal's
    /// revision, not the revision of the entry it ended.
    static func rememberRemovals(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE ended_memberships (
                trip_id       TEXT NOT NULL REFERENCES trips (id) ON DELETE CASCADE,
                member_field  TEXT NOT NULL,
                join_revision INTEGER NOT NULL,
                PRIMARY KEY (trip_id, member_field)
            );
            """)
    }
}

extension TripsSchema {
    // MARK: - 9: who wrote each pulled value

    /// `fields.author`: the username of the account whose request wrote a pulled value, as the
    /// server lists it (NULL for this device's own writes, membership entries and values from
    /// older servers). A value of a member this device saw leave is sent again when a restored
    /// server forgot it: that member's devices deleted their copies and cannot.
    static func rememberAuthors(_ db: SQLiteConnection) throws {
        try db.execute("ALTER TABLE fields ADD COLUMN author TEXT;")
    }
}

extension TripsSchema {
    // MARK: - 10: other members' values a restored server forgot

    /// `set_aside_values`: a value of another member that a snapshot from a server restored from
    /// a backup no longer held, kept until its field is pulled again (its author's device sent it
    /// again) or its author's departure arrives, when this device sends it instead (the departed
    /// member's device deleted its copy).
    static func setAsideForgottenValues(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE set_aside_values (
                trip_id  TEXT NOT NULL REFERENCES trips (id) ON DELETE CASCADE,
                item_id  TEXT NOT NULL,
                field    TEXT NOT NULL,
                value    TEXT NOT NULL,
                revision INTEGER NOT NULL,
                author   TEXT NOT NULL,
                PRIMARY KEY (trip_id, item_id, field)
            );
            """)
    }
}

extension TripsSchema {
    // MARK: - 11: key work to finish before sending

    /// `key_work_due`: work on a trip's key this owner's device must finish before it sends
    /// anything into the trip (``TripsDatabase/KeyWork``): removals a server restored from a
    /// backup may have forgotten, to make again (`removal_check`), and a rotation the server asks
    /// for after a member left (`rotation`). Kept in the database so a failed attempt is tried
    /// again by the next run (or process) instead of leaving the device sealing with a key the
    /// member who went holds.
    static func waitForKeyWork(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE key_work_due (
                trip_id TEXT NOT NULL REFERENCES trips (id) ON DELETE CASCADE,
                work    TEXT NOT NULL CHECK (work IN ('removal_check', 'rotation')),
                PRIMARY KEY (trip_id, work)
            );
            """)
    }
}
