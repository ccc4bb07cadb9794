import QuireSQLite
import Testing

@testable import QuireServer

/// The history's statements, written with PostgreSQL's `$1` placeholders, as SQLite runs them.
@Suite struct NumberedParametersTests {
    @Test func everyPlaceholderBecomesSQLitesNumberedOneAndNothingElseChanges() {
        let sql = "SELECT 'é €' FROM t WHERE a = $1 AND b IN ($2, $12) AND c = $1 -- naïve"
        #expect(
            SQLiteConnection.numberedParameters(sql)
                == "SELECT 'é €' FROM t WHERE a = ?1 AND b IN (?2, ?12) AND c = ?1 -- naïve")
        #expect(SQLiteConnection.numberedParameters("") == "")
    }

    @Test func aValueBindsWhereverItsNumberStands() throws {
        let db = try SQLiteConnection(path: ":memory:")
        let rows = try db.historyRows("SELECT $2, $1, $2", [.text("one"), .int(2)]) {
            [try $0.int64At(0), Int64(try $0.textAt(1).count), try $0.int64At(2)]
        }
        #expect(rows == [[2, 3, 2]])
    }
}
