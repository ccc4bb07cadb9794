import Foundation
import QuireClient
import QuireTestSupport
import QuireTrips
import Testing

/// The app's members sheet and invitations screen over a real `quire-server` on loopback (issue 17
/// over issue 15): DeviceTripMembersRepository and DeviceTripInvitationsRepository do what `quire
/// trip share`, `members`, `invite`, `role`, `remove`, `invites`, `accept` and `join` do, through
/// the devices the CLI signed in.
@Suite struct AppTripMembersThroughARealServerTests {
    @Test func anOwnerSharesChangesARoleMakesALinkAndRemovesAMember() async throws {
        let root = try TemporaryDirectory(prefix: "quire-app-members")
        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        defer {
            server.terminate()
            root.remove()
        }
        let alice = CLIDevice(root, "alice")
        let bob = CLIDevice(root, "bob")
        let carol = CLIDevice(root, "carol")
        for (device, name) in [(alice, "alice"), (bob, "bob"), (carol, "carol")] {
            try await device.ok(
                ["register", server.url.absoluteString, name, "--password-stdin"], stdin: "correct horse\n")
        }
        // Bob's key is published when he first looks for invitations.
        try await bob.ok("trip", "invites")
        let (text, _) = try await alice.lisbonWithLunch()
        try await alice.ok("sync")
        let trip = try #require(TripID(text))

        let device = try QuireDevice(directory: alice.directory)
        let repository = DeviceTripMembersRepository(sharing: try #require(try device.makeTripSharing()))
        #expect(repository.username == "alice")

        // This device first saw another key for bob: the sheet is asked, by name and fingerprint,
        // instead of being told the CLI's --trust-new-key; nothing is sent until it is taken.
        let otherKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        #expect(try await device.trips.checkKey(otherKey, of: "bob") == .new)
        do {
            _ = try await repository.share(trip, with: "bob", role: .editor, trustingNewKey: false)
            Issue.record("a changed key was used without asking")
        } catch let TripMembersError.keyChanged(username, fingerprint) {
            #expect(username == "bob")
            #expect(fingerprint.count == 19 && fingerprint != TripSharing.fingerprint(otherKey))
        }
        #expect(try await bob.ok("trip", "invites").contains("No invitations"))

        let invited = try await repository.share(trip, with: "bob", role: .editor, trustingNewKey: true)
        #expect(invited.username == "bob")
        #expect(invited.fingerprint.count == 19)
        // Bob accepts on the app's invitations screen; his next sync brings the trip.
        let bobsDevice = try QuireDevice(directory: bob.directory)
        let bobsInvitations = DeviceTripInvitationsRepository(sharing: try #require(try bobsDevice.makeTripSharing()))
        let waiting = try await bobsInvitations.invitations()
        #expect(waiting.map(\.trip) == [trip])
        #expect(waiting.first?.from.username == "alice")
        #expect(waiting.first?.from.fingerprint.count == 19)
        #expect(
            try await bobsInvitations.accept(try #require(waiting.first?.id)) == TripJoin(trip: trip, role: .editor))
        #expect(try await bobsInvitations.invitations().isEmpty)
        try await bob.ok("sync")
        #expect(try await bob.ok("trip", "ls").contains("Lisbon"))

        var members = try await repository.members(of: trip)
        #expect(members.map(\.username).sorted() == ["alice", "bob"])
        #expect(members.first { $0.username == "alice" }?.role == .owner)
        #expect(members.first { $0.username == "bob" }?.role == .editor)
        #expect(members.allSatisfy { $0.keyChangedFrom == nil && !$0.fingerprint.isEmpty })

        try await repository.setRole(.viewer, of: "bob", in: trip)
        members = try await repository.members(of: trip)
        #expect(members.first { $0.username == "bob" }?.role == .viewer)

        let link = try await repository.inviteLink(to: trip, role: .viewer)
        #expect(link.hasPrefix(server.url.absoluteString), "\(link)")
        // Carol joins by the link on the app; a cut link is refused before the server is asked.
        let carolsDevice = try QuireDevice(directory: carol.directory)
        let carols = DeviceTripInvitationsRepository(sharing: try #require(try carolsDevice.makeTripSharing()))
        await #expect(throws: TripMembersError.notALink) { _ = try await carols.join(link: String(link.prefix(30))) }
        #expect(try await carols.join(link: link) == TripJoin(trip: trip, role: .viewer))
        #expect(try await repository.members(of: trip).map(\.username).sorted() == ["alice", "bob", "carol"])

        #expect(try await repository.unsentChanges(of: trip) == 0)
        try await repository.remove("bob", from: trip)
        #expect(try await repository.members(of: trip).map(\.username).sorted() == ["alice", "carol"])

        // A link revoked lets nobody join, bob (no longer a member) included.
        let revoked = try await repository.inviteLink(to: trip, role: .editor)
        try await repository.revokeLink(revoked, of: trip)
        await #expect(throws: (any Error).self) { _ = try await bobsInvitations.join(link: revoked) }
        #expect(try await repository.members(of: trip).map(\.username).sorted() == ["alice", "carol"])
    }
}
