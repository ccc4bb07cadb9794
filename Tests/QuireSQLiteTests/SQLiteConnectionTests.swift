import Foundation
import QuireSQLite
import Testing

/// The thin layer over SQLite: values round-trip, transactions are all or nothing, migrations run
/// once and refuse a newer file.
@Suite struct SQLiteConnectionTests {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("quire-sqlite-\(UUID().uuidString).sqlite").path

    private func open() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        try connection.execute("CREATE TABLE IF NOT EXISTS t (i INTEGER, r REAL, s TEXT, b BLOB)")
        return connection
    }

    @Test func everyValueKindRoundTrips() throws {
        let db = try open()
        let blob = Data([0, 1, 2, 255])
        try db.run("INSERT INTO t VALUES (?, ?, ?, ?)", 42, 2.5, "héllo 👋", blob)
        try db.run("INSERT INTO t VALUES (?, ?, ?, ?)", SQLiteValue.null, SQLiteValue.null, SQLiteValue.null, Data())
        let rows = try db.query("SELECT i, r, s, b FROM t ORDER BY rowid") { row in
            (row.optionalInt(0), row.optionalDouble(1), row.optionalText(2), row.optionalBlob(3))
        }
        #expect(rows[0].0 == 42)
        #expect(rows[0].1 == 2.5)
        #expect(rows[0].2 == "héllo 👋")
        #expect(rows[0].3 == blob)
        #expect(rows[1].0 == nil && rows[1].1 == nil && rows[1].2 == nil)
        #expect(rows[1].3 == Data())  // an empty blob stays a blob, not NULL
    }

    @Test func textsAreBoundWholeWhateverTheirStorage() throws {
        let db = try open()
        let long = String(repeating: "0123456789abcdef", count: 300)
        let texts = [
            "",  // an empty text stays text, not NULL
            "a\u{0}b",  // bound with its length: nothing after a NUL is lost
            String(long.dropFirst(7).prefix(2_000)),  // a substring's copy
            NSString(string: "bridged ünïcode").description,
            long,
        ]
        for text in texts { try db.run("INSERT INTO t (s) VALUES (?)", text) }
        let rows = try db.query("SELECT s, typeof(s), length(CAST(s AS BLOB)) FROM t ORDER BY rowid") { row in
            (row.optionalText(0), row.text(1), row.int(2))
        }
        #expect(rows.map(\.0) == texts)
        #expect(rows.map(\.1) == Array(repeating: "text", count: texts.count))
        #expect(rows.map(\.2) == texts.map(\.utf8.count))
    }

    @Test func aTransactionThatThrowsLeavesNothing() throws {
        struct Boom: Error {}
        let db = try open()
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t (i) VALUES (1)")
                throw Boom()
            }
        }
        #expect(try db.queryFirst("SELECT COUNT(*) FROM t") { $0.int(0) } == 0)
        #expect(!db.isInTransaction)
        // The connection is usable afterwards.
        try db.transaction { try db.run("INSERT INTO t (i) VALUES (2)") }
        #expect(try db.queryFirst("SELECT COUNT(*) FROM t") { $0.int(0) } == 1)
    }

    @Test func aNestedTransactionRollsBackAloneAsASavepoint() throws {
        struct Boom: Error {}
        let db = try open()
        try db.transaction {
            try db.run("INSERT INTO t (i) VALUES (1)")
            #expect(throws: Boom.self) {
                try db.transaction {
                    try db.run("INSERT INTO t (i) VALUES (2)")
                    throw Boom()
                }
            }
        }
        #expect(try db.query("SELECT i FROM t") { $0.int(0) } == [1])
    }

    @Test func aWrongNumberOfParametersIsAnErrorNamingTheSQL() throws {
        let db = try open()
        let error = try #require(throws: SQLiteError.self) { try db.run("INSERT INTO t (i) VALUES (?)") }
        #expect(error.sql == "INSERT INTO t (i) VALUES (?)")
        #expect(error.message.contains("1 parameters, 0 given"))
    }

    @Test func migrationsRunOnceInOrderAndANewerFileIsRefused() throws {
        let db = try SQLiteConnection(path: path)
        let migrator = SQLiteMigrator([
            { try $0.execute("CREATE TABLE a (x)") },
            { try $0.execute("ALTER TABLE a ADD COLUMN y") },
        ])
        try migrator.migrate(db)
        try migrator.migrate(db)  // nothing left to run
        #expect(try db.userVersion() == 2)
        try db.run("INSERT INTO a (x, y) VALUES (1, 2)")

        let older = SQLiteMigrator([{ try $0.execute("CREATE TABLE a (x)") }])
        let error = try #require(throws: SQLiteError.self) { try older.migrate(db) }
        #expect(error.message.contains("newer than this program"))
    }
}
