import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Sharing a trip (issue 15) on both stores: keys, invitations, members, roles and removal.
final class TripSharingRouteTests {
    private(set) var harness: ServerHarness!
    private(set) var alice = ""
    private(set) var bob = ""
    private(set) var trip = ""

    func setUp(_ store: StoreKind) async throws {
        harness = try await ServerHarness(store: store)
        alice = try await harness.sharingToken("alice", seed: 1)
        bob = try await harness.sharingToken("bob", seed: 2)
        trip = try await harness.newTrip(token: alice)
    }

    @Test(arguments: StoreKind.allCases) func anAccountPublishesItsKeyAndOthersReadOnlyThePublicHalf(
        store: StoreKind
    ) async throws {
        try await setUp(store)
        let own = await harness.sharingRequest("GET", WireRoutes.sharingKey, token: alice)
        let others = await harness.sharingRequest("GET", WireRoutes.sharingKey(of: "Alice"), token: bob)
        let nobody = await harness.sharingRequest("GET", WireRoutes.sharingKey(of: "zed"), token: bob)
        let carol = try await harness.token("carol")
        let carolsOwn = await harness.sharingRequest("GET", WireRoutes.sharingKey, token: carol)

        #expect(
            try own.decoded(SharingKeyDTO.self)
                == SharingKeyDTO(
                    publicKey: SharingValue.publicKey(1), wrappedPrivateKey: SharingValue.wrappedPrivateKey))
        #expect(
            try others.decoded(PublicSharingKeyDTO.self)
                == PublicSharingKeyDTO(username: "alice", publicKey: SharingValue.publicKey(1)))
        #expect(!others.text.contains("wrappedPrivateKey"))
        #expect(nobody.status == 404)
        #expect(carolsOwn.status == 404)
    }

    @Test(arguments: StoreKind.allCases) func anInviteeJoinsWithItsOwnWrappedKeyAndEdits(store: StoreKind) async throws
    {
        try await setUp(store)
        let invited = await harness.inviteResponse(trip, "bob", role: "editor", token: alice)
        let waiting = try await harness.invites(token: bob)
        let before = try await harness.tripsFeed(token: bob)
        let bobsKey = Data(repeating: 3, count: 60).base64EncodedString()
        let accepted = await harness.acceptResponse(try #require(waiting.first).id, token: bob, wrappedKey: bobsKey)
        let feed = try await harness.tripsFeed(token: bob, since: before.nextCursor)
        let ops = try await harness.ops(trip, [TripValue.op(nil, "title", "Lisbon")], token: bob)
        let members = try await harness.members(trip, token: bob)

        #expect(invited.status == 201)
        #expect(waiting.map(\.from) == ["alice"])
        #expect(waiting.first?.fromPublicKey == SharingValue.publicKey(1))
        #expect(waiting.first?.sealedKey == SharingValue.sealedKey)
        #expect(before.trips.isEmpty)
        #expect(accepted.status == 200)
        #expect(feed.trips.map(\.id) == [trip])
        #expect(feed.trips.first?.wrappedKey == bobsKey)
        #expect(feed.trips.first?.role == "editor")
        // (Revisions 1 and 2 are the log's first entries: alice the owner, and bob's join.)
        #expect(ops.results.compactMap(\.revision) == [3])
        #expect(members.map(\.username) == ["alice", "bob"])
        #expect(members.map(\.role) == ["owner", "editor"])
        #expect(members.map(\.publicKey) == [SharingValue.publicKey(1), SharingValue.publicKey(2)])
        #expect(try await harness.invites(token: bob).isEmpty)
        #expect(await harness.acceptResponse(try #require(waiting.first).id, token: bob).status == 404)
    }

    @Test(arguments: StoreKind.allCases) func joinsRoleChangesAndRemovalsAreEntriesInTheTripsLog(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let carol = try await harness.sharingToken("carol", seed: 3)
        try await harness.share(trip, with: "bob", role: "editor", owner: alice, token: bob)
        // Bob's own cursor: a cursor is sealed to the account it was given to.
        let start = try await harness.tripChanges(trip, token: bob).nextCursor
        let alicesFeed = try await harness.tripsFeed(token: alice)

        try await harness.share(trip, with: "carol", role: "viewer", owner: alice, token: carol)
        #expect(await harness.roleResponse(trip, "bob", "viewer", token: alice).status == 204)
        #expect(await harness.removeResponse(trip, "carol", token: alice).status == 204)
        let log = try await harness.tripChanges(trip, cursor: start, token: bob)
        let moved = try await harness.tripsFeed(token: alice, since: alicesFeed.nextCursor)

        // Each change is a plain-text field of the trip, newest value per member, in order.
        #expect(log.changes.map(\.field) == ["member.bob", "member.carol"])
        #expect(log.changes.map(\.value) == ["viewer", nil])
        #expect(log.changes.allSatisfy { $0.item == nil && $0.valueHash == nil })
        let revisions = log.changes.map(\.revision)
        #expect(revisions.count == 2 && revisions.last == revisions.first.map { $0 + 1 })
        // Every member's trips feed moved, so their devices pull it.
        #expect(moved.trips.map(\.id) == [trip])
        // The server writes these fields; an op naming one is refused.
        let forged = await harness.opsResponse(trip, [TripValue.op(nil, "member.bob", "owner")], token: bob)
        #expect(forged.status == 400 || forged.status == 403)
    }

    @Test(arguments: StoreKind.allCases) func eachValueNamesTheAccountThatWroteIt(store: StoreKind) async throws {
        // A device that holds a value of someone who left sends it again after a restore: the
        // log says whose each value is; the server's own membership entries are nobody's.
        try await setUp(store)
        try await harness.share(trip, with: "bob", role: "editor", owner: alice, token: bob)
        _ = try await harness.ops(trip, [TripValue.op(nil, "title", "Lisbon")], token: bob)
        _ = try await harness.ops(trip, [TripValue.op(nil, "notes", "Pack light")], token: alice)

        let changes = try await harness.tripChanges(trip, token: alice).changes
        let authors = Dictionary(uniqueKeysWithValues: changes.map { ($0.field, $0.author ?? "none") })
        #expect(authors == ["member.alice": "none", "member.bob": "none", "title": "bob", "notes": "alice"])
        // The title rewritten by alice is hers from then on.
        let base = try #require(changes.first { $0.field == "title" }?.revision)
        _ = try await harness.ops(trip, [TripValue.op(nil, "title", "Porto", base: base)], token: alice)
        let title = try await harness.tripChanges(trip, token: bob).changes.first { $0.field == "title" }
        #expect(title?.author == "alice")
    }

    @Test(arguments: StoreKind.allCases) func aDeparturesEntryNamesTheMembershipItEnded(store: StoreKind) async throws {
        // A device that never held carol's entry can still tell, after a restore, the membership
        // a removal ended from a join since: the listing, a role change and the removal all name
        // the join's revision.
        try await setUp(store)
        let carol = try await harness.sharingToken("carol", seed: 3)
        try await harness.share(trip, with: "carol", role: "viewer", owner: alice, token: carol)
        let listed = try await harness.tripChanges(trip, token: alice).changes
        let joined = try #require(listed.first { $0.field == "member.carol" }?.revision)
        #expect(await harness.roleResponse(trip, "carol", "editor", token: alice).status == 204)
        // A role change names the join that started the membership; so does the members list.
        let changed = try #require(
            try await harness.tripChanges(trip, token: alice).changes.first { $0.field == "member.carol" })
        #expect(changed.revision > joined && changed.seenRevision == joined)
        let members = try await harness.members(trip, token: alice)
        #expect(members.first { $0.username == "carol" }?.entryRevision == joined)
        #expect(await harness.removeResponse(trip, "carol", token: alice).status == 204)

        let removal = try #require(
            try await harness.tripChanges(trip, token: alice).changes.first {
                $0.field == "member.carol"
            })
        #expect(removal.value == nil && removal.revision > changed.revision)
        #expect(removal.seenRevision == joined)
        #expect(
            try await harness.tripChanges(trip, token: alice).changes.first { $0.field == "member.alice" }?.seenRevision
                == nil)
    }

    @Test(arguments: StoreKind.allCases) func aViewerReadsButEveryWriteIsForbidden(store: StoreKind) async throws {
        try await setUp(store)
        let carol = try await harness.sharingToken("carol", seed: 3)
        try await harness.share(trip, with: "bob", role: "viewer", owner: alice, token: bob)

        let ops = await harness.opsResponse(trip, [TripValue.op(nil, "title", "Mine now")], token: bob)
        let invite = await harness.inviteResponse(trip, "carol", role: "editor", token: bob)
        let raise = await harness.roleResponse(trip, "bob", "owner", token: bob)
        let demote = await harness.roleResponse(trip, "alice", "viewer", token: bob)
        let remove = await harness.removeResponse(trip, "alice", token: bob)
        let snapshot = await harness.snapshotResponse(trip, token: bob)

        for refused in [ops, invite, raise, demote, remove] {
            #expect(refused.status == 403, "\(refused.text)")
            #expect(refused.errorCode == "forbidden")
        }
        #expect(snapshot.status == 200)
        #expect(try await harness.members(trip, token: alice).map(\.role) == ["owner", "viewer"])
        #expect(try await harness.invites(token: carol).isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func aRemovedMemberIsRefusedWith403AndItsFeedSaysRemoved(store: StoreKind)
        async throws
    {
        try await setUp(store)
        try await harness.share(trip, with: "bob", role: "editor", owner: alice, token: bob)
        let before = try await harness.tripsFeed(token: bob)
        let opID = ServerHarness.uuid()
        let sent = [TripValue.op(nil, "title", "Bob's title")]
        _ = try await harness.ops(trip, sent, opID: opID, token: bob)

        let removed = await harness.removeResponse(trip, "bob", token: alice)
        // A removed member replaying an op id it used before gets no replayed answer either.
        let replayed = await harness.opsResponse(trip, sent, opID: opID, token: bob)
        #expect(replayed.status == 403)
        #expect(replayed.errorCode == "removed_from_trip")
        let feed = try await harness.tripsFeed(token: bob, since: before.nextCursor)
        let answers = [
            await harness.snapshotResponse(trip, token: bob),
            await harness.tripChangesResponse(trip, token: bob),
            await harness.opsResponse(trip, [TripValue.op(nil, "title", "Still here")], token: bob),
            await harness.sharingRequest("GET", WireRoutes.tripMembers(trip), token: bob),
        ]
        let stranger = try await harness.sharingToken("carol", seed: 3)
        let neverMember = await harness.snapshotResponse(trip, token: stranger)

        #expect(removed.status == 204)
        #expect(feed.trips.map(\.id) == [trip])
        #expect(feed.trips.first?.removed == true)
        #expect(feed.trips.first?.wrappedKey == "")
        for answer in answers {
            #expect(answer.status == 403, "\(answer.text)")
            #expect(answer.errorCode == "removed_from_trip")
        }
        #expect(neverMember.status == 404)
        #expect(try await harness.members(trip, token: alice).map(\.username) == ["alice"])

        // Invited again, it is a member again and its feed shows the trip as its own.
        try await harness.share(trip, with: "bob", role: "viewer", owner: alice, token: bob)
        let rejoined = try await harness.tripsFeed(token: bob, since: feed.nextCursor)
        #expect(rejoined.trips.map(\.removed) == [nil])
        #expect(await harness.snapshotResponse(trip, token: bob).status == 200)
    }

    @Test(arguments: StoreKind.allCases) func aTripAlwaysKeepsAnOwner(store: StoreKind) async throws {
        try await setUp(store)
        try await harness.share(trip, with: "bob", role: "editor", owner: alice, token: bob)

        let demoteSelf = await harness.roleResponse(trip, "alice", "editor", token: alice)
        let leave = await harness.removeResponse(trip, "alice", token: alice)
        let promote = await harness.roleResponse(trip, "bob", "owner", token: alice)
        let leaveNow = await harness.removeResponse(trip, "alice", token: alice)

        #expect(demoteSelf.status == 409)
        #expect(demoteSelf.errorCode == "last_owner")
        #expect(leave.errorCode == "last_owner")
        #expect(promote.status == 204)
        #expect(leaveNow.status == 204)
        #expect(try await harness.members(trip, token: bob).map(\.username) == ["bob"])
        #expect(await harness.snapshotResponse(trip, token: alice).errorCode == "removed_from_trip")
    }

    @Test(arguments: StoreKind.allCases) func borrowedTripsAndInvitesAreNotFound(store: StoreKind) async throws {
        try await setUp(store)
        let carol = try await harness.sharingToken("carol", seed: 3)
        let bobsTrip = try await harness.newTrip(token: bob)
        let invited = try await harness.inviteResponse(trip, "carol", role: "viewer", token: alice)
            .decoded(TripInviteDTO.self)

        let inviteToOthers = await harness.inviteResponse(trip, "bob", role: "editor", token: carol)
        let membersOfOthers = await harness.sharingRequest("GET", WireRoutes.tripMembers(bobsTrip), token: alice)
        let acceptOthers = await harness.acceptResponse(invited.id, token: bob)
        let declineOthers = await harness.sharingRequest("POST", WireRoutes.declineInvite(invited.id), token: bob)
        let unknownUser = await harness.inviteResponse(trip, "nobody", role: "editor", token: alice)
        let ownerInvite = await harness.inviteResponse(trip, "bob", role: "owner", token: alice)

        #expect(inviteToOthers.status == 404)
        #expect(membersOfOthers.status == 404)
        #expect(acceptOthers.status == 404)
        #expect(declineOthers.status == 404)
        #expect(unknownUser.status == 404)
        #expect(ownerInvite.status == 400)
        #expect(try await harness.invites(token: carol).map(\.id) == [invited.id])
        let declined = await harness.sharingRequest("POST", WireRoutes.declineInvite(invited.id), token: carol)
        #expect(declined.status == 204)
        #expect(try await harness.invites(token: carol).isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func anInviteFromSomeoneNoLongerAnOwnerIsVoid(store: StoreKind) async throws {
        try await setUp(store)
        let carol = try await harness.sharingToken("carol", seed: 3)
        try await harness.share(trip, with: "bob", role: "editor", owner: alice, token: bob)
        #expect(await harness.roleResponse(trip, "bob", "owner", token: alice).status == 204)
        let invited = try await harness.inviteResponse(trip, "carol", role: "editor", token: bob)
            .decoded(TripInviteDTO.self)
        #expect(await harness.roleResponse(trip, "bob", "viewer", token: alice).status == 204)

        let accepted = await harness.acceptResponse(invited.id, token: carol)

        #expect(accepted.status == 404)
        #expect(await harness.snapshotResponse(trip, token: carol).status == 404)
    }
}
