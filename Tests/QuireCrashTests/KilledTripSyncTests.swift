import Foundation
import QuireTestSupport
import Testing

/// `quire sync` SIGKILLed at random moments while it pushes a trip's field changes to a real
/// `quire-server`, until one sync completes; then a second device pulls. No op may apply twice:
/// each field write bumps the trip's revision once, so the newest revision on the server is the
/// number of writes made, and nothing comes back as a conflict or an old value.
@Suite struct KilledTripSyncTests {
    struct Trip: Decodable {
        struct Day: Decodable { var items: [Item] }
        struct Item: Decodable {
            var id: String
            var title: String
            var state: String
            var fields: [String: Field]
        }
        struct Field: Decodable { var revision: Int }
        var fields: [String: Field]
        var days: [Day]
        var conflictCount: Int
        var pendingCount: Int

        var items: [Item] { days.flatMap(\.items) }
        var newestRevision: Int {
            (fields.values.map(\.revision) + items.flatMap { $0.fields.values.map(\.revision) }).max() ?? 0
        }
    }

    static func trip(_ device: CrashDevice, _ id: String) async throws -> Trip {
        try JSONDecoder().decode(Trip.self, from: Data(try await device.ok("trip", "show", id, "--json").utf8))
    }

    @Test func killedTripSyncsResendWithoutApplyingAnyOpTwice() async throws {
        var random = CrashRandom()
        let rerun = random.rerun
        let root = try TemporaryDirectory(prefix: "quire-crash-trips")
        defer { root.remove() }
        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        defer { server.terminate() }
        let account = try await CrashAccounts.make(server: server)
        let phone = CrashDevice(root, "phone")
        let laptop = CrashDevice(root, "laptop")
        for device in [phone, laptop] { try await account.signIn(device, server: server) }

        // Given: a trip of 30 items made offline: 1 trip field and 3 per item (title, start, order).
        let trip = try await phone.ok("trip", "new", "Lisbon")
        let items = try await phone.okAll(
            (0..<30).map { index in
                [
                    "trip", "add", trip, "--title", "Item \(index) v0", "--at", "2027-06-10 \(10 + index % 10):00",
                    "--zone", "Europe/Lisbon",
                ]
            })
        var writes = 1 + 3 * items.count
        var kills = 0
        var lastCompleted: TimeInterval = 0.150
        var expectedTitles = Dictionary(uniqueKeysWithValues: items.enumerated().map { ($1, "Item \($0) v0") })
        // At least four rounds, and more (up to twelve) until four syncs were killed: whether a
        // kill lands before a sync completes depends on this machine's timing (one full run
        // killed only 3 of its 4 rounds' syncs), so the run goes on until it has what it checks.
        var round = 0
        while round < 4 || (kills < 4 && round < 12) {
            defer { round += 1 }
            if round > 0 {
                // Every title changes once between completed syncs: one write each.
                let titles = items.enumerated().map { ($1, "Item \($0) v\(round)") }
                try await phone.okAll(titles.map { ["trip", "edit", $0.0, "--title", $0.1] })
                for (id, title) in titles { expectedTitles[id] = title }
                writes += items.count
            }
            // When: syncs killed at random moments until one completes. The moments are drawn
            // over how long the last completed sync took: on a fast machine a fixed window would
            // mostly miss the run.
            var attempt = 0
            while true {
                attempt += 1
                let window = max(0.02, lastCompleted)
                let outcome = try await phone.run(["sync"], killAfter: attempt > 12 ? nil : random.delay(upTo: window))
                if outcome.succeeded {
                    lastCompleted = outcome.elapsed
                    break
                }
                try #require(outcome.killed, "sync failed by itself: \(outcome.result.stderr); \(rerun)")
                kills += 1
                // After every kill, the phone still shows every edit.
                let shown = try await Self.trip(phone, trip)
                #expect(
                    Dictionary(uniqueKeysWithValues: shown.items.map { ($0.id, $0.title) }) == expectedTitles,
                    "\(rerun)")
            }
        }

        // Then: the laptop pulls the same trip, every field once, at the revisions the writes imply.
        try await laptop.ok("sync")
        for device in [phone, laptop] {
            let shown = try await Self.trip(device, trip)
            #expect(
                Dictionary(uniqueKeysWithValues: shown.items.map { ($0.id, $0.title) }) == expectedTitles, "\(rerun)")
            #expect(shown.conflictCount == 0, "\(rerun)")
            #expect(shown.pendingCount == 0, "\(rerun)")
            #expect(shown.items.allSatisfy { $0.state == "synced" }, "\(rerun)")
            #expect(
                shown.newestRevision == writes,
                "the server applied \(shown.newestRevision) writes of \(writes); \(rerun)")
        }
        #expect(kills >= 4, "only \(kills) kills; \(rerun)")
        print("KilledTripSyncTests: \(kills) kills over \(round) rounds, \(writes) field writes; seed \(random.seed)")
    }
}
