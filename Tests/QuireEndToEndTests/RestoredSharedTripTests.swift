import Foundation
import QuireTestSupport
import Testing

/// A shared trip across a server restored from a backup, with real `quire` and `quire-server`
/// processes and the operator's recipe of docs/deploying.md ("Restoring from a backup"):
/// `sqlite3 … "VACUUM INTO …"` while the server runs, then the copy put in place of a stopped
/// server's file (issue 15; docs/trips.md, "A removal or a departed member's text, after a
/// restore").
@Suite struct RestoredSharedTripTests {
    @Test func aRemovalTheRestoreForgotIsMadeAgainBeforeTheOwnerSendsAnything() async throws {
        let setup = try await SharedTripsThroughARealServerTests.Setup()
        defer { setup.tearDown() }
        try await setup.share(with: setup.bob, "bob", role: "editor")
        try await setup.bob.ok("sync")
        let backup = setup.root.path("backup.sqlite")
        try await Self.sqlite3(setup.server.databaseFile, "VACUUM INTO '\(backup.path)'")

        // Alice removes Bob; then the server goes back to the backup, which still has him.
        try await setup.alice.ok("trip", "remove", setup.trip, "bob")
        let restored = try await Self.restore(setup.server, from: backup)
        defer { restored.terminate() }
        #expect(try await Self.sqlite3(setup.server.databaseFile, "SELECT count(*) FROM trip_members") == "2")

        // Alice types after the removal: her device removes Bob again before sending it.
        try await setup.alice.ok("trip", "edit", setup.lunch, "--notes", "typed after Bob was removed")
        try await setup.alice.ok("sync")
        #expect(!(try await setup.alice.ok("trip", "members", setup.trip)).contains("bob"))

        // Bob's device loses the trip and never shows what Alice typed after the removal.
        let synced = try await setup.bob.run("sync")
        #expect(synced.exitCode == 0, "\(synced.stderr)")
        #expect(try await setup.bob.ok("trip", "ls").contains("Lisbon") == false)
        #expect(try await setup.bob.run("trip", "show", setup.trip).exitCode != 0)
        #expect(try await Self.sqlite3(setup.server.databaseFile, "SELECT count(*) FROM trip_members") == "1")
        // And Alice's note is on the server for her other devices: her device pulls it back whole.
        try await setup.alice.ok("sync")
        #expect(try await setup.alice.trip(setup.trip).item(setup.lunch)?.notes == "typed after Bob was removed")
    }

    @Test func aJoinTheRestoreForgotTakesTheTripFromTheMembersDeviceWithAWarning() async throws {
        let setup = try await SharedTripsThroughARealServerTests.Setup()
        defer { setup.tearDown() }
        let backup = setup.root.path("backup.sqlite")
        try await Self.sqlite3(setup.server.databaseFile, "VACUUM INTO '\(backup.path)'")
        try await setup.share(with: setup.bob, "bob", role: "editor")
        try await setup.bob.ok("trip", "edit", setup.lunch, "--notes", "typed before the restore")

        let restored = try await Self.restore(setup.server, from: backup)
        defer { restored.terminate() }

        // The restored server never shared the trip with Bob: his device says what is lost, once,
        // and the next sync is clean (it used to fail with 404 on every run).
        let first = try await setup.bob.run("sync")
        #expect(first.stderr.contains("1 change to 'Lisbon' hasn't synced and will be lost"), "\(first.stderr)")
        #expect(try await setup.bob.ok("trip", "ls").contains("Lisbon") == false)
        let second = try await setup.bob.run("sync")
        #expect(second.exitCode == 0, "\(second.stderr)")
        // Alice shares it again, and Bob has it back.
        try await setup.share(with: setup.bob, "bob", role: "editor")
        #expect(try await setup.bob.trip(setup.trip).item(setup.lunch)?.title == "Lunch")
    }

    /// Runs `sql` on `database` with the `sqlite3` command, as an operator would; its output.
    @discardableResult
    static func sqlite3(_ database: URL, _ sql: String) async throws -> String {
        let result = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), [database.path, sql])
        #expect(result.exitCode == 0, "sqlite3: \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops `server`, puts `backup` in place of its file, and starts a server on it at the same
    /// address (the devices keep their server URL).
    static func restore(_ server: ServerProcess, from backup: URL) async throws -> ServerProcess {
        await server.stop()
        let file = server.databaseFile
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        try FileManager.default.removeItem(at: file)
        try FileManager.default.copyItem(at: backup, to: file)
        return try await ServerProcess.start(
            databaseFile: file, extraArguments: ["--port", String(server.url.port ?? 0)])
    }
}
