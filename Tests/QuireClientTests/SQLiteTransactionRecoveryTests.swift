import Foundation
import QuireSQLite
import Testing

/// The wrapper the notes database stands on: a transaction whose COMMIT fails must leave the
/// connection usable (it once counted the failed transaction twice and broke every later one).
struct SQLiteTransactionRecoveryTests {
    @Test func aFailedCommitRollsBackAndLaterTransactionsStillWork() throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let connection = try SQLiteConnection(path: fixture.fileURL.path)
        try connection.execute(
            """
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);
            """)

        // The dangling reference is only checked at COMMIT, so COMMIT itself fails.
        #expect(throws: SQLiteError.self) {
            try connection.transaction {
                try connection.run("INSERT INTO child (parent) VALUES (1)")
            }
        }

        #expect(!connection.isInTransaction)
        #expect(try connection.query("SELECT COUNT(*) FROM child") { $0.int(0) } == [0])
        try connection.transaction {
            try connection.run("INSERT INTO parent (id) VALUES (1)")
            _ = try connection.transaction {
                try connection.run("INSERT INTO child (parent) VALUES (1)")
            }
        }
        #expect(try connection.query("SELECT COUNT(*) FROM child") { $0.int(0) } == [1])
    }
}
