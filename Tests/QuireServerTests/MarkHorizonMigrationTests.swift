import Foundation
import QuirePostgres
import QuireSQLite
import QuireTestSupport
import Testing

@testable import QuireServer

/// Issue 13 part 6: the history keeps a replaced version's mark with its text, and the marks'
/// horizon says from when marks count. A store upgraded from one whose `note_marks` held every
/// replaced mark, some of them pruned, starts its horizon where its `note_marks` does, so an older
/// text the history kept does not make a pruned mark's version "never written here".
struct MarkHorizonMigrationTests {
    /// Version 4 of note `n`, current; the history holds versions 1 and 3; version 2 was thinned
    /// from the history and its mark pruned, as was version 1's: `note_marks` keeps version 3's.
    private static let fixture = [
        """
        INSERT INTO notes (account_id, note_id, version, deleted, payload, updated_at, seq, mark)
        VALUES (1, 'n', 4, FALSE, 'v4', 400, 4, 44)
        """,
        """
        INSERT INTO note_versions (account_id, note_id, version, payload, saved_at, replaced_at, mark)
        VALUES (1, 'n', 1, 'v1', 100, 200, 11), (1, 'n', 3, 'v3', 300, 400, 33)
        """,
        "INSERT INTO note_marks (account_id, note_id, version, mark, created_at) VALUES (1, 'n', 3, 33, 300)",
    ]

    private static let current = StoredNote(
        id: "n", version: 4, updatedAt: Date(storedMilliseconds: 400), deleted: false, payload: "v4", seq: 4,
        writer: nil, mark: 44)

    /// What the upgraded store says of bases 1 to 3 with their own tags, and of version 3 with
    /// another history's.
    private static func judged(_ db: some HistoryDatabase) throws -> [Bool?] {
        try [(1, 11), (2, 22), (3, 33), (3, 99)].map { number, tag in
            try NoteMarkQueries.knows(
                BaseVersion(number: number, tag: Int64(tag)), of: current, account: AccountID(1), db: db)
        }
    }

    private static let expected: [Bool?] = [nil, nil, true, false]

    @Test func aSQLiteStoreUpgradedFromMigration26StartsItsHorizonWhereItsMarksDo() async throws {
        let directory = try TemporaryDirectory(prefix: "quire-mark-horizon")
        let (db, path) = try SQLiteConnection.migratedWithAda(in: directory, through: 26)
        for statement in Self.fixture { try db.execute(statement) }

        let storage = try SQLiteServerStorage(path: path)
        await storage.close()

        #expect(SQLiteServerStorage.migrator.migrations.count == 27)
        #expect(try Self.judged(db) == Self.expected)
    }

    @Test func aPostgresStoreUpgradedFromMigration15StartsItsHorizonWhereItsMarksDo() async throws {
        let connectionString = try await PostgresTestCluster.freshDatabase()
        let judged = try await onOwnThread {
            let db = try PostgresConnection.migrated(connectionString, through: 15)
            try db.insertAccountAda()
            for statement in Self.fixture { try db.execute(statement) }
            try PostgresServerStorage.migrate(db)
            return try Self.judged(db)
        }

        #expect(PostgresServerStorage.migrations.count == 16)
        #expect(judged == Self.expected)
    }
}
