import QuireSQLite

extension SQLiteServerStorage {
    /// Migration 18: `trips.value_bytes`, the bytes of a trip's values as ops wrote them (member
    /// entries excepted), which ``TripQuota`` bounds; counted from the stored fields once here,
    /// then kept by each ops request and by the purge (`TripRow.valueBytes`).
    static func countEachTripsBytes(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE trips ADD COLUMN value_bytes INTEGER NOT NULL DEFAULT 0;
            UPDATE trips SET value_bytes = COALESCE((
                SELECT SUM(LENGTH(value)) FROM trip_fields
                WHERE trip_fields.trip_id = trips.trip_id AND trip_fields.field NOT LIKE 'member.%'), 0);
            """)
    }
}
