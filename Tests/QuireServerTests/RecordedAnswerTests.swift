import Foundation
import QuirePostgres
import QuireSQLite
import QuireTestSupport
import QuireWire
import Testing

@testable import QuireServer

/// Issue 13 part 6: an idempotency record keeps a saved write's facts, not its answer's bytes, so
/// the answer is built (its cursors sealed) off the store's writer, the first time and on each
/// replay. A replay must still be the first answer byte for byte, on another instance too, and a
/// record kept as bytes before the change must still replay them.
struct RecordedAnswerTests {
    /// A PUT of a new note under `key`, as a device sends it.
    private static func put(_ id: String, key: String, token: String) -> HTTPRequest {
        HTTPRequest(
            method: "PUT", path: WireRoutes.note(id),
            headers: ["Authorization": "Bearer \(token)", "Idempotency-Key": key],
            body: WireJSON.encode(PutNoteRequestDTO(payload: "p1", baseVersion: nil)))
    }

    /// Runs `sql` on the harness's store, from a connection of the test's own.
    private static func execute(_ sql: String, on harness: ServerHarness) async throws {
        if let connectionString = harness.postgresConnectionString {
            try await onOwnThread { try PostgresConnection(connectionString).execute(sql) }
        } else {
            try SQLiteConnection(path: harness.databasePath).execute(sql)
        }
    }

    @Test func aSavedWritesRecordKeepsItsFactsAndNoBytes() async throws {
        let harness = try ServerHarness()
        let token = try await harness.token("ada")
        let first = await harness.server.handle(Self.put(ServerHarness.uuid(), key: "k", token: token))
        let answer = try first.decoded(PutNoteResponseDTO.self)
        let db = try SQLiteConnection(path: harness.databasePath)

        let row = try db.queryFirst("SELECT length(response_body), saved_version, saved_seq FROM idempotency_records") {
            [$0.int(0), $0.int(1), $0.int(2)]
        }

        #expect(first.status == 200 && answer.version == 1)
        #expect(row?[0] == 0, "no answer bytes: the answer is built from the facts")
        #expect(row?[1] == 1)
        #expect(row?[2] ?? 0 > 0)
    }

    @Test(arguments: StoreKind.allCases) func aReplayOnAnotherInstanceIsTheFirstAnswerByteForByte(store: StoreKind)
        async throws
    {
        let harness = try await ServerHarness(store: store)
        let token = try await harness.token("ada")
        let request = Self.put(ServerHarness.uuid(), key: "k", token: token)
        let first = await harness.server.handle(request)

        let again = await (try await harness.restarted()).handle(request)

        #expect(first.status == 200)
        #expect(again.status == 200 && again.header("Idempotent-Replayed") == "true")
        #expect(again.body == first.body)
    }

    @Test(arguments: StoreKind.allCases) func aRecordKeptAsBytesIsReplayedAsThem(store: StoreKind) async throws {
        let harness = try await ServerHarness(store: store)
        let token = try await harness.token("ada")
        let request = Self.put(ServerHarness.uuid(), key: "k", token: token)
        #expect(await harness.server.handle(request).status == 200)
        // As the record of an answer an earlier server sent, kept as its bytes.
        let earlier = #"{"version":1,"cursor":"c1"}"#
        let hex = Data(earlier.utf8).map { String(format: "%02x", $0) }.joined()
        let bytes = store == .postgres ? "'\\x\(hex)'" : "x'\(hex)'"
        try await Self.execute(
            """
            UPDATE idempotency_records SET response_body = \(bytes), saved_version = NULL, saved_seq = NULL,
                saved_mark = NULL, previous_seq = NULL, previous_mark = NULL
            """, on: harness)

        let again = await harness.server.handle(request)

        #expect(again.status == 200 && again.header("Idempotent-Replayed") == "true")
        #expect(String(decoding: again.body, as: UTF8.self) == earlier)
    }

    @Test func aSQLiteStoreUpgradedFromMigration24KeepsItsRecordsBytes() async throws {
        let directory = try TemporaryDirectory(prefix: "quire-recorded-answers")
        let (db, path) = try SQLiteConnection.migratedWithAda(in: directory, through: 24)
        try db.run(
            """
            INSERT INTO idempotency_records (account_id, key, fingerprint, status, response_body, created_at)
            VALUES (1, 'k', 'f', 200, ?, 5)
            """, Data("{\"version\":3}".utf8))

        let storage = try SQLiteServerStorage(path: path)
        let kept = try db.queryFirst(
            "SELECT \(RecordedAnswer.storedColumns) FROM idempotency_records WHERE key = 'k'"
        ) { try RecordedAnswer(row: $0, at: 0) }
        await storage.close()

        #expect(kept == .response(RecordedResponse(status: 200, body: Data("{\"version\":3}".utf8))))
    }

    @Test func aPostgresStoreUpgradedFromMigration13KeepsItsRecordsBytes() async throws {
        let connectionString = try await PostgresTestCluster.freshDatabase()
        let kept = try await onOwnThread {
            let db = try PostgresConnection.migrated(connectionString, through: 13)
            try db.insertAccountAda()
            try db.query(
                """
                INSERT INTO idempotency_records (account_id, key, fingerprint, status, response_body, created_at)
                VALUES (1, 'k', 'f', 200, $1, 5)
                """, Data("{\"version\":3}".utf8))
            try PostgresServerStorage.migrate(db)
            return try db.historyRows(
                "SELECT \(RecordedAnswer.storedColumns) FROM idempotency_records WHERE key = 'k'", []
            ) { try RecordedAnswer(row: $0, at: 0) }
        }

        #expect(kept == [.response(RecordedResponse(status: 200, body: Data("{\"version\":3}".utf8)))])
    }
}
