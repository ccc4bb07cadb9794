import Foundation
import QuireSQLite
import QuireTestSupport
import Testing

/// A new device's first sync of an account with more notes than one page and a purged delete
/// (issue 9, defect 6), with the real `quire` and `quire-server` binaries.
@Suite struct FirstSyncAfterAPurgeTests {
    /// The server's default `--tombstone-days`, and a day more.
    static let olderThanRetention: Int64 = 31 * 86_400_000

    @Test func newDeviceFinishesItsFirstSyncInOneRun() async throws {
        let root = try TemporaryDirectory(prefix: "quire-e2e-purge")
        defer { root.remove() }
        let database = root.path("server.sqlite")
        let phone = CLIDevice(root, "phone")
        let tablet = CLIDevice(root, "tablet")

        // Given an account with 202 notes, one of them deleted: 201 live notes, more than the
        // client's page of 200.
        var server = try await ServerProcess.start(databaseFile: database)
        defer { server.terminate() }
        try await phone.ok(
            "register", server.url.absoluteString, "alice", "--password-stdin",
            stdin: "correct horse\n")
        var ids: [String] = []
        for index in 0..<202 {
            ids.append(try await phone.ok("new", "--title", "Note \(index)", "--body", "body \(index)"))
        }
        try await phone.ok("sync")
        try await phone.ok("rm", ids[7])
        try await phone.ok("sync")

        // And its tombstone older than the retention: the database is aged while the server is
        // stopped, and the restarted server purges it as it starts.
        #expect(await server.stop() == 0)
        try Self.ageTombstones(in: database)
        server = try await ServerProcess.start(databaseFile: database)
        #expect(try Self.tombstoneCount(in: database) == 0)

        // When a fresh device signs in and syncs once.
        try await tablet.ok(
            "login", server.url.absoluteString, "alice", "--password-stdin",
            stdin: "correct horse\n")
        let sync = try await tablet.run("sync")

        // Then that one run finishes with every live note.
        #expect(sync.exitCode == 0, "sync failed: \(sync.stderr)")
        let notes = try await tablet.notes()
        #expect(notes.count == 201)
        #expect(Set(notes.map(\.id)).subtracting(ids).isEmpty)
        #expect(Set(ids).subtracting(notes.map(\.id)) == [ids[7]])
        #expect(notes.allSatisfy { $0.state == "synced" })
    }

    /// Moves every tombstone's last change back by more than the retention.
    private static func ageTombstones(in database: URL) throws {
        let db = try SQLiteConnection(path: database.path)
        let aged = try db.run(
            "UPDATE notes SET updated_at = updated_at - ? WHERE deleted = 1", olderThanRetention)
        try #require(aged == 1)
    }

    private static func tombstoneCount(in database: URL) throws -> Int {
        try SQLiteConnection(path: database.path).queryFirst(
            "SELECT COUNT(*) FROM notes WHERE deleted = 1"
        ) { $0.int(0) } ?? -1
    }
}
