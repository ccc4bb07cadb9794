import QuirePostgres

extension PostgresServerStorage {
    /// Migration 15: idempotency records in key order, as the SQLite store's
    /// `orderIdempotencyRecordsByKey`: a new record's index entry goes at the end of the index.
    static func orderIdempotencyRecordsByKey(_ db: PostgresConnection) throws {
        try db.execute(
            """
            ALTER TABLE idempotency_records
                DROP CONSTRAINT idempotency_records_pkey,
                ADD PRIMARY KEY (key, account_id);
            """)
    }
}
