import QuirePostgres

extension PostgresServerStorage {
    /// Migration: each account's live notes and their payload bytes as counters on its row, kept
    /// by a trigger on `notes`, as the SQLite store's `countEachAccountsUsage`. A write already
    /// holds its account's row lock, so the counters add no contention.
    static func countEachAccountsUsage(_ db: PostgresConnection) throws {
        try db.execute(
            """
            ALTER TABLE accounts ADD COLUMN live_notes bigint NOT NULL DEFAULT 0;
            ALTER TABLE accounts ADD COLUMN live_bytes bigint NOT NULL DEFAULT 0;
            UPDATE accounts SET
                live_notes = (SELECT COUNT(*) FROM notes WHERE account_id = accounts.id AND NOT deleted),
                live_bytes = (SELECT COALESCE(SUM(octet_length(payload)), 0) FROM notes
                    WHERE account_id = accounts.id AND NOT deleted);
            CREATE FUNCTION notes_usage() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP IN ('UPDATE', 'DELETE') AND NOT OLD.deleted THEN
                    UPDATE accounts SET live_notes = live_notes - 1,
                        live_bytes = live_bytes - COALESCE(octet_length(OLD.payload), 0)
                    WHERE id = OLD.account_id;
                END IF;
                IF TG_OP IN ('INSERT', 'UPDATE') AND NOT NEW.deleted THEN
                    UPDATE accounts SET live_notes = live_notes + 1,
                        live_bytes = live_bytes + COALESCE(octet_length(NEW.payload), 0)
                    WHERE id = NEW.account_id;
                END IF;
                RETURN NULL;
            END
            $$;
            CREATE TRIGGER notes_usage AFTER INSERT OR UPDATE OR DELETE ON notes
                FOR EACH ROW EXECUTE FUNCTION notes_usage();
            """)
    }
}
