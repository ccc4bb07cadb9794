import Foundation
import QuirePostgres
import QuireSQLite
import QuireTestSupport
import Testing

@testable import QuireServer

/// Issue 13 part 6: idempotency records are kept in key order (key, then account), so a device's
/// time-ordered change id (``ChangeID``) adds its record at the end of the index. Both stores'
/// upgrades keep every record, as facts or as bytes, and replay them.
struct IdempotencyKeyOrderTests {
    /// A saved write's facts and a delete's answer as bytes, as a server of the last release kept them.
    private static let insertTwoRecords = """
        INSERT INTO idempotency_records (account_id, key, fingerprint, status, response_body, created_at,
            saved_version, saved_seq, saved_mark, previous_seq, previous_mark)
        VALUES (1, 'saved', 'f1', 200, x'', 5, 3, 40, 7, 39, 6),
            (1, 'deleted', 'f2', 204, x'', 6, NULL, NULL, NULL, NULL, NULL)
        """

    private static let expected: [RecordedAnswer] = [
        .response(RecordedResponse(status: 204, body: Data())),
        .saved(version: 3, position: FeedPosition(seq: 40, mark: 7), previous: FeedPosition(seq: 39, mark: 6)),
    ]

    @Test func aSQLiteStoreUpgradedFromMigration25KeepsItsRecordsInKeyOrder() async throws {
        let directory = try TemporaryDirectory(prefix: "quire-key-order")
        let (db, path) = try SQLiteConnection.migratedWithAda(in: directory, through: 25)
        try db.execute(Self.insertTwoRecords)

        let storage = try SQLiteServerStorage(path: path)
        let kept = try db.query(
            "SELECT \(RecordedAnswer.storedColumns) FROM idempotency_records WHERE account_id = 1 ORDER BY key"
        ) { try RecordedAnswer(row: $0, at: 0) }
        let keyColumns = try db.query(
            "SELECT name FROM pragma_table_info('idempotency_records') WHERE pk > 0 ORDER BY pk"
        ) { $0.text(0) }
        await storage.close()

        #expect(kept == Self.expected)
        #expect(keyColumns == ["key", "account_id"])
    }

    @Test func aPostgresStoreUpgradedFromMigration14KeepsItsRecordsInKeyOrder() async throws {
        let connectionString = try await PostgresTestCluster.freshDatabase()
        let (kept, keyColumns) = try await onOwnThread {
            let db = try PostgresConnection.migrated(connectionString, through: 14)
            try db.insertAccountAda()
            try db.execute(
                Self.insertTwoRecords.replacingOccurrences(of: "x''", with: "'\\x'"))
            try PostgresServerStorage.migrate(db)
            let kept = try db.historyRows(
                "SELECT \(RecordedAnswer.storedColumns) FROM idempotency_records WHERE account_id = 1 ORDER BY key",
                []
            ) { try RecordedAnswer(row: $0, at: 0) }
            let keyColumns = try db.historyRows(
                """
                SELECT a.attname FROM pg_index i
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
                WHERE i.indrelid = 'idempotency_records'::regclass AND i.indisprimary
                ORDER BY array_position(i.indkey::int2[], a.attnum)
                """, []
            ) { try $0.textAt(0) }
            return (kept, keyColumns)
        }

        #expect(kept == Self.expected)
        #expect(keyColumns == ["key", "account_id"])
    }
}
