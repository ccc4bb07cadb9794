import Foundation
import QuireSQLite
import Testing

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// The process-wide settings of the SQLite library, and the statement cache's keys.
@Suite struct SQLiteLibraryTests {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("quire-sqlite-library-\(UUID().uuidString).sqlite").path

    #if !canImport(SQLite3)
        /// With its statistics on, SQLite takes a process-wide mutex in every allocation and free
        /// to count the bytes (about 6% of the server's writer thread).
        @Test func sqliteCountsNoBytesOnceAConnectionOpened() throws {
            let db = try SQLiteConnection(path: path)
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(SQLiteLibrary.configured)
            try db.execute("CREATE TABLE t (s TEXT)")
            for index in 0..<100 { try db.run("INSERT INTO t VALUES (?)", String(repeating: "x", count: index * 100)) }
            #expect(sqlite3_memory_used() == 0)
        }
    #endif

    /// The cache hashes a statement by its length and its ends only: statements alike in those
    /// but not in their middle are still two statements.
    @Test func statementsAlikeButInTheirMiddleRunEachItsOwnText() throws {
        let db = try SQLiteConnection(path: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let texts = [
            "SELECT 'abcdefghijklmnopqrstuvwxyz' || ? AS answer", "SELECT 'abcdefghijklmn0pqrstuvwxyz' || ? AS answer",
        ]
        #expect(texts[0].utf8.count == texts[1].utf8.count)
        for round in 0..<3 {
            for text in texts {
                let answer = try db.queryFirst(text, round) { $0.text(0) }
                #expect(answer == String(text.dropFirst(8).prefix(26)) + "\(round)")
            }
        }
    }
}
