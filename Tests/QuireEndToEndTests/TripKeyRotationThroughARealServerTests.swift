import Foundation
import QuireClient
import QuireSQLite
import QuireTestSupport
import QuireTrips
import Testing

/// Key rotation (issue 15) with real `quire` devices and a real `quire-server` on loopback: a
/// removal rotates the trip's key in the same request, a value written afterwards is stored
/// sealed with the new key and does not open with the keys the removed member held, a member
/// whose waiting change was sealed with the old key catches up and resends it, and a member
/// leaving makes the owner's next sync rotate.
@Suite struct TripKeyRotationThroughARealServerTests {
    typealias Setup = SharedTripsThroughARealServerTests.Setup

    /// The trip's keys on `device`'s own database.
    func keyring(_ device: CLIDevice, _ trip: String) async throws -> TripKeyring {
        let database = try TripsDatabase(fileURL: device.directory.appendingPathComponent("trips.sqlite"))
        let id = try #require(TripID(trip))
        return try #require(try await database.keyring(id))
    }

    /// What the server's database holds for a field of the lunch item.
    func storedValue(_ setup: Setup, field: String) throws -> String? {
        let server = try SQLiteConnection(path: setup.root.path("server.sqlite").path)
        return try server.queryFirst(
            "SELECT value FROM trip_fields WHERE trip_id = ? AND item_id = ? AND field = ?", setup.trip, setup.lunch,
            field
        ) { $0.optionalText(0) } ?? nil
    }

    @Test func valuesWrittenAfterARemovalDoNotOpenWithTheRemovedMembersKeys() async throws {
        let setup = try await Setup()
        defer { setup.tearDown() }
        try await setup.share(with: setup.bob, "bob", role: "editor")
        try await setup.share(with: setup.carol, "carol", role: "editor")
        let bobsKeys = try await keyring(setup.bob, setup.trip)
        // Carol types while offline from the rotation: her change is sealed with the old key.
        try await setup.carol.ok("trip", "edit", setup.lunch, "--notes", "window seat")

        let removed = try await setup.alice.ok("trip", "remove", setup.trip, "bob")
        try await setup.alice.ok("trip", "edit", setup.lunch, "--title", "Lunch at Cervejaria Ramiro")
        try await setup.alice.ok("sync")
        let carolsSync = try await setup.carol.ok("sync")
        try await setup.alice.ok("sync")
        let bobsSync = try await setup.bob.run("sync")

        #expect(removed.contains("Removed bob from 'Lisbon'; its key is now epoch 2"), "\(removed)")
        #expect(bobsKeys.epoch == 1)
        let title = try #require(try storedValue(setup, field: "title"))
        let notes = try #require(try storedValue(setup, field: "notes"))
        #expect(title.hasPrefix("e2."), "the title written after the removal is sealed with the new key")
        #expect(notes.hasPrefix("e2."), "carol's change was sealed again with the new key: \(carolsSync)")
        let trip = try #require(TripID(setup.trip))
        let lunch = try #require(ItemID(setup.lunch))
        let removedMember = TripSealer(trip: trip, keyring: bobsKeys)
        #expect(throws: TripSealingError.self) { try removedMember.open(title, item: lunch, field: "title") }
        #expect(throws: TripSealingError.self) { try removedMember.open(notes, item: lunch, field: "notes") }
        let owner = TripSealer(trip: trip, keyring: try await keyring(setup.alice, setup.trip))
        #expect(try owner.open(title, item: lunch, field: "title") == "Lunch at Cervejaria Ramiro")
        for device in [setup.alice, setup.carol] {
            let item = try #require(try await device.trip(setup.trip).item(setup.lunch))
            #expect(item.title == "Lunch at Cervejaria Ramiro")
            #expect(item.notes == "window seat")
            #expect(try await keyring(device, setup.trip).epoch == 2)
            #expect(try await keyring(device, setup.trip).key(1) == bobsKeys.current, "older values still open")
        }
        #expect(bobsSync.exitCode == 0, "\(bobsSync.stderr)")
        #expect(try await setup.bob.ok("trip", "ls").contains("Lisbon") == false)

        // Carol leaves: the owner's next sync rotates, and her keys open nothing written after.
        try await setup.carol.ok("trip", "leave", setup.trip)
        try await setup.alice.ok("sync")
        try await setup.alice.ok("trip", "edit", setup.lunch, "--notes", "after carol left")
        try await setup.alice.ok("sync")
        #expect(try await keyring(setup.alice, setup.trip).epoch == 3)
        let later = try #require(try storedValue(setup, field: "notes"))
        #expect(later.hasPrefix("e3."))
        let carolsOldKeys = TripSealer(
            trip: trip, keyring: TripKeyring(current: try await keyring(setup.alice, setup.trip).key(2)!, epoch: 2))
        #expect(throws: TripSealingError.self) { try carolsOldKeys.open(later, item: lunch, field: "notes") }
    }
}
