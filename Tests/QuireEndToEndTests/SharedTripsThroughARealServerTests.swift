import Foundation
import QuireTestSupport
import Testing

/// A trip shared by three accounts on three `quire` devices, through a real `quire-server`
/// process on loopback (issue 15): an owner, an editor and a viewer.
@Suite struct SharedTripsThroughARealServerTests {
    struct Setup {
        let root: TemporaryDirectory
        let server: ServerProcess
        let alice: CLIDevice
        let bob: CLIDevice
        let carol: CLIDevice
        let trip: String
        let lunch: String

        init() async throws {
            root = try TemporaryDirectory(prefix: "quire-share")
            server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
            alice = CLIDevice(root, "alice")
            bob = CLIDevice(root, "bob")
            carol = CLIDevice(root, "carol")
            for (device, name) in [(alice, "alice"), (bob, "bob"), (carol, "carol")] {
                try await device.ok(
                    ["register", server.url.absoluteString, name, "--password-stdin"], stdin: "correct horse\n")
            }
            (trip, lunch) = try await alice.lisbonWithLunch()
            try await alice.ok("sync")
        }

        /// `owner` invites `name` with `role`; `device` accepts and syncs the trip.
        func share(with device: CLIDevice, _ name: String, role: String) async throws {
            let invited = try await alice.ok("trip", "share", trip, "--with", name, "--role", role)
            #expect(invited.contains("Invited \(name) to 'Lisbon' as \(role)"))
            let invites = try #require(
                try JSONSerialization.jsonObject(with: Data(try await device.ok("trip", "invites", "--json").utf8))
                    as? [[String: Any]])
            let invite = try #require(invites.first?["id"] as? String)
            #expect(invites.first?["from"] as? String == "alice")
            let joined = try await device.ok("trip", "accept", String(invite.prefix(8)))
            #expect(joined.contains("'Lisbon' is on this device"))
        }

        func tearDown() {
            server.terminate()
            root.remove()
        }
    }

    @Test func anEditorAndTheOwnerMergeAViewerIsRefusedAndTheServerReadsNoTitle() async throws {
        let setup = try await Setup()
        defer { setup.tearDown() }
        try await setup.share(with: setup.bob, "bob", role: "editor")
        try await setup.share(with: setup.carol, "carol", role: "viewer")
        #expect(try await setup.bob.trip(setup.trip).item(setup.lunch)?.title == "Lunch")
        // The joins are entries in the trip's log: the owner's device pulls them as plain text,
        // never as values it could not decrypt.
        let pulled = try await setup.alice.ok("sync")
        #expect(pulled.contains("received 3"), "\(pulled)")
        #expect(!pulled.contains("could not be decrypted"), "\(pulled)")
        // Every member's device shows who shares the trip, offline, from those entries.
        #expect(
            try await setup.alice.ok("trip", "show", setup.trip).contains(
                "Shared: alice (owner), bob (editor), carol (viewer)"))
        try await setup.bob.ok("sync")
        let shown = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try await setup.bob.ok("trip", "show", setup.trip, "--json").utf8))
                as? [String: Any])
        #expect((shown["members"] as? [[String: String]])?.map { $0["username"] } == ["alice", "bob", "carol"])

        // Owner and editor change different fields of one item at once: both stay, everywhere.
        try await setup.alice.ok("trip", "edit", setup.lunch, "--title", "Lunch at Time Out Market")
        try await setup.bob.ok("trip", "edit", setup.lunch, "--notes", "book ahead")
        try await setup.alice.ok("sync")
        try await setup.bob.ok("sync")
        try await setup.alice.ok("sync")
        try await setup.carol.ok("sync")
        for device in [setup.alice, setup.bob, setup.carol] {
            let lunch = try #require(try await device.trip(setup.trip).item(setup.lunch))
            #expect(lunch.title == "Lunch at Time Out Market")
            #expect(lunch.notes == "book ahead")
        }

        // The viewer's edit is refused at once, with who to ask; nothing waits to be refused.
        let viewing = try await setup.carol.run("trip", "edit", setup.lunch, "--location", "Mercado da Ribeira")
        #expect(viewing.exitCode == 77, "\(viewing.stderr)")
        #expect(viewing.stderr.contains("ask an owner to make you an editor"), "\(viewing.stderr)")
        #expect(try await setup.carol.run("trip", "add", setup.trip, "--title", "Mine").exitCode == 77)
        #expect(try await setup.carol.ok("sync").hasPrefix("Synced"))

        // An editor made a viewer while editing offline: the server refuses the change, kept on
        // the device with the reason; the owner's later change shows once the editor lets the
        // refused one go (it used to hide it for good, every sync exiting 75).
        try await setup.bob.ok("trip", "edit", setup.lunch, "--location", "Mercado da Ribeira")
        try await setup.alice.ok("trip", "role", setup.trip, "bob", "--role", "viewer")
        let refused = try await setup.bob.run("sync")
        #expect(refused.exitCode == 75, "\(refused.stderr)")
        #expect(refused.stderr.contains("--keep theirs"), "\(refused.stderr)")
        let kept = try #require(try await setup.bob.trip(setup.trip).item(setup.lunch))
        #expect(kept.location == "Mercado da Ribeira")
        #expect(kept.fields["location"]?.state == "refused")
        try await setup.alice.ok("sync")
        #expect(try await setup.alice.trip(setup.trip).item(setup.lunch)?.location == nil)
        try await setup.alice.ok("trip", "edit", setup.lunch, "--location", "Time Out Market")
        try await setup.alice.ok("sync")
        try await setup.bob.run("sync")
        try await setup.bob.ok("trip", "resolve", setup.lunch, "--field", "location", "--keep", "theirs")
        #expect(try await setup.bob.trip(setup.trip).item(setup.lunch)?.location == "Time Out Market")
        #expect(try await setup.bob.run("sync").exitCode == 0)
        try await setup.alice.ok("trip", "role", setup.trip, "bob", "--role", "editor")
        try await setup.bob.ok("sync")

        // The one owner cannot leave; she is told how another takes over, or how to delete it.
        let leaving = try await setup.alice.run("trip", "leave", setup.trip)
        #expect(leaving.exitCode == 65, "\(leaving.stderr)")
        #expect(leaving.stderr.contains("--role owner"), "\(leaving.stderr)")
        #expect(leaving.stderr.contains("quire trip rm"), "\(leaving.stderr)")

        // The members, each with a key fingerprint the others can compare.
        let members = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try await setup.bob.ok("trip", "members", setup.trip, "--json").utf8)) as? [[String: Any]])
        #expect(members.map { $0["username"] as? String } == ["alice", "bob", "carol"])
        #expect(members.map { $0["role"] as? String } == ["owner", "editor", "viewer"])
        #expect(members.allSatisfy { ($0["fingerprint"] as? String)?.count == 19 })

        // The server's file never holds a title, a note or a trip key in plain text.
        for file in ["server.sqlite", "server.sqlite-wal"] {
            guard let stored = try? Data(contentsOf: setup.root.path(file)) else { continue }
            for secret in ["Lisbon", "Time Out Market", "book ahead", "Mercado"] {
                #expect(stored.range(of: Data(secret.utf8)) == nil, "\(secret) is readable in \(file)")
            }
        }
    }

    @Test func aRemovedEditorIsWarnedOfItsUnsentEditAndLosesTheTrip() async throws {
        let setup = try await Setup()
        defer { setup.tearDown() }
        try await setup.share(with: setup.bob, "bob", role: "editor")
        try await setup.bob.ok("trip", "edit", setup.lunch, "--notes", "typed before I was removed")

        try await setup.alice.ok("trip", "remove", setup.trip, "bob")
        let synced = try await setup.bob.run("sync")

        #expect(synced.stderr.contains("1 change to 'Lisbon' hasn't synced and will be lost"), "\(synced.stderr)")
        #expect(try await setup.bob.ok("trip", "ls").contains("Lisbon") == false)
        #expect(try await setup.bob.run("trip", "members", setup.trip).exitCode != 0)
        let members = try await setup.alice.ok("trip", "members", setup.trip)
        #expect(members.contains("alice (you)  owner"))
        #expect(!members.contains("bob"))
        // Alice's copy is untouched, and the removed editor's note never reached it.
        try await setup.alice.ok("sync")
        #expect(try await setup.alice.trip(setup.trip).item(setup.lunch)?.notes == nil)
    }

    @Test func leavingWithUnsentChangesAsksForForce() async throws {
        let setup = try await Setup()
        defer { setup.tearDown() }
        try await setup.share(with: setup.bob, "bob", role: "editor")
        try await setup.bob.ok("trip", "edit", setup.lunch, "--title", "Dinner")

        let refused = try await setup.bob.run("trip", "leave", setup.trip)
        let left = try await setup.bob.ok("trip", "leave", setup.trip, "--force")

        #expect(refused.exitCode == 65)
        #expect(refused.stderr.contains("1 change(s) to 'Lisbon' haven't synced"))
        #expect(left.contains("Left 'Lisbon'"))
        #expect(try await setup.alice.ok("trip", "members", setup.trip).contains("bob") == false)
        let shareAgain = try await setup.alice.run("trip", "role", setup.trip, "alice", "--role", "viewer")
        #expect(shareAgain.exitCode == 65)
        #expect(shareAgain.stderr.contains("without an owner"))
    }
}

extension SharedTripsThroughARealServerTests {
    @Test func anInviteLinkJoinsAFourthAccountOnceAndARevokedOneNoOne() async throws {
        let setup = try await Setup()
        defer { setup.tearDown() }
        let dave = CLIDevice(setup.root, "dave")
        try await dave.ok(
            ["register", setup.server.url.absoluteString, "dave", "--password-stdin"], stdin: "correct horse\n")

        let link = try await setup.alice.ok("trip", "invite", setup.trip, "--role", "editor")
        let joined = try await dave.ok("trip", "join", link)
        let usedUp = try await setup.bob.run("trip", "join", link)
        let revokedLink = try await setup.alice.ok("trip", "invite", setup.trip)
        try await setup.alice.ok("trip", "invite", setup.trip, "--revoke", revokedLink)
        let revoked = try await setup.carol.run("trip", "join", revokedLink)
        let cut = try await setup.carol.run("trip", "join", String(revokedLink.prefix { $0 != "#" }))

        #expect(link.contains("/join/") && link.contains("#"))
        #expect(joined.contains("Joined trip") && joined.contains("'Lisbon' is on this device"))
        #expect(try await dave.trip(setup.trip).item(setup.lunch)?.title == "Lunch")
        #expect(usedUp.exitCode == 65)
        #expect(usedUp.stderr.contains("cannot be used"))
        #expect(revoked.exitCode == 65)
        #expect(cut.exitCode == 64)
        #expect(try await setup.alice.ok("trip", "members", setup.trip).contains("dave"))
        // The server's log and database never see the secret after '#'.
        let secret = String(link.split(separator: "#")[1])
        for file in ["server.sqlite", "server.sqlite-wal"] {
            guard let stored = try? Data(contentsOf: setup.root.path(file)) else { continue }
            #expect(stored.range(of: Data(secret.utf8)) == nil)
        }
    }
}
