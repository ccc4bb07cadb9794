import Foundation
import QuireTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Promise 5 (a failed sync shows as failed): a `quire sync` killed mid-run (kill -9, a full disk,
/// Ctrl-C before the run could record its end) left the status "Syncing…" until the next sync,
/// with no process syncing. A run's "syncing" now holds only while a process holds the device's
/// sync lock; a record that says so with the lock free is a run that was cut short.
@Suite struct InterruptedSyncStatusTests {
    @Test func aSyncKilledMidRunShowsAsNotFinishedNotAsSyncing() async throws {
        let setup = try await TwoCLIDevices()
        defer {
            kill(setup.server.pid, SIGCONT)
            setup.tearDown()
        }
        try await setup.phone.ok("new", "--title", "Plan", "--body", "meet at one")
        // The server stops answering; the sync waits on it, and says so while it runs.
        kill(setup.server.pid, SIGSTOP)
        let sync = try BackgroundProcess.start(
            try BuiltProducts.executable("quire"), ["--data-dir", setup.phone.directory.path, "sync"],
            outputFile: setup.root.path("sync.out"))
        let syncing = await eventually(timeout: 30) {
            (try? await Self.status(setup.phone))?["isSyncing"] as? Bool == true
        }
        #expect(syncing, "the running sync shows as syncing")

        await sync.kill9()
        kill(setup.server.pid, SIGCONT)

        let status = try await Self.status(setup.phone)
        #expect(status["isSyncing"] as? Bool == false, "\(status)")
        #expect(status["lastRunFailed"] as? Bool == true, "\(status)")
        #expect((status["lastError"] as? String)?.contains("did not finish") == true, "\(status)")
        let text = try await setup.phone.ok("status")
        #expect(!text.contains("Syncing"), "\(text)")
        // The next sync finishes it.
        try await setup.phone.ok("sync")
        let after = try await Self.status(setup.phone)
        #expect(after["lastRunFailed"] as? Bool == false && after["isSyncing"] as? Bool == false, "\(after)")
    }

    static func status(_ device: CLIDevice) async throws -> [String: Any] {
        let json = try await device.ok("status", "--json")
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }
}
