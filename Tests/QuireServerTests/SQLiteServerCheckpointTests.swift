import Foundation
import QuireSQLite
import QuireTestSupport
import QuireWire
import Testing

@testable import QuireServer

/// Issue 13 part 6: the SQLite store's write-ahead log is copied into the file by a thread of its
/// own, not inside a shared commit that every write of its group waits for.
struct SQLiteServerCheckpointTests {
    @Test func noCommitOfNoteWritesCopiesTheLog() async throws {
        let directory = try TemporaryDirectory(prefix: "quire-checkpoint")
        defer { directory.remove() }
        let path = directory.path("server.sqlite").path
        let storage = try SQLiteServerStorage(path: path, checkpointFrames: 100)
        let server = NotesServer(storage: storage, configuration: ServerHarness.configuration, log: { _ in })
        let token = try await server.createAccount(username: "ann")

        // 25 rounds of 8 concurrent 1.4 KB notes: about 800 pages through the log.
        for _ in 0..<25 {
            let answers = await SQLiteWALBufferTests.putConcurrently(8, server: server, token: token)
            #expect(answers.map(\.status) == Array(repeating: 200, count: 8))
        }

        let counts = try #require(storage.checkpoints?.counts)
        #expect(counts.background >= 1, "\(counts)")
        #expect(counts.byWriter == 0, "\(counts)")
        // And /metrics says so (the thread may have copied again since).
        let scrape = await server.handle(HTTPRequest(method: "GET", path: "/metrics", remoteAddress: "127.0.0.1"))
        let lines = String(decoding: scrape.body, as: UTF8.self).split(separator: "\n")
        let byThread = lines.first { $0.hasPrefix(#"quire_sqlite_checkpoints_total{by="thread"} "#) }
        #expect(byThread.flatMap { Int($0.split(separator: " ").last ?? "") }.map { $0 >= counts.background } == true)
        #expect(lines.contains(#"quire_sqlite_checkpoints_total{by="writer"} 0"#))
        let logBytes = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
        #expect(logBytes <= 500 * (4_096 + 24), "the log grew to \(logBytes) bytes")
        await storage.close()
        let reopened = try SQLiteConnection(path: path)
        #expect(try reopened.queryFirst("SELECT count(*) FROM notes") { $0.int(0) } == 200)
    }
}
