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
