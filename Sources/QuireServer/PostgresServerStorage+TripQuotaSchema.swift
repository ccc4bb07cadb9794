import QuirePostgres

extension PostgresServerStorage {
    /// Migration: `trips.value_bytes`, as the SQLite store's `countEachTripsBytes`.
    static func countEachTripsBytes(_ db: PostgresConnection) throws {
        try db.execute(
            """
            ALTER TABLE trips ADD COLUMN value_bytes bigint NOT NULL DEFAULT 0;
            UPDATE trips SET value_bytes = COALESCE((
                SELECT SUM(length(value)) FROM trip_fields
                WHERE trip_fields.trip_id = trips.trip_id AND trip_fields.field NOT LIKE 'member.%'), 0);
            """)
    }
}
