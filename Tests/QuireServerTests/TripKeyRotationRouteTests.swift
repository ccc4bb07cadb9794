import Foundation
import QuireCrypto
import QuireWire
import Testing

@testable import QuireServer

/// Rotating a trip's key (issue 15) on both stores: a removal and a rotation are one
/// transaction, the new key reaches exactly the members who stay and the pending invitations,
/// values sealed with a replaced key are refused, and nothing changes when a check fails.
final class TripKeyRotationRouteTests {
    private(set) var harness: ServerHarness!
    private(set) var alice = ""
    private(set) var bob = ""
    private(set) var carol = ""
    private(set) var trip = ""

    /// Alice owns the trip; Bob is an editor and Carol a viewer.
    func setUp(_ store: StoreKind) async throws {
        harness = try await ServerHarness(store: store)
        alice = try await harness.sharingToken("alice", seed: 1)
        bob = try await harness.sharingToken("bob", seed: 2)
        carol = try await harness.sharingToken("carol", seed: 3)
        trip = try await harness.newTrip(token: alice)
        try await harness.share(trip, with: "bob", role: "editor", owner: alice, token: bob)
        try await harness.share(trip, with: "carol", role: "viewer", owner: alice, token: carol)
    }

    static let chained = Data(repeating: 4, count: 60).base64EncodedString()

    static func sealed(for username: String, epoch: Int) -> String {
        Data(repeating: UInt8(truncatingIfNeeded: username.count * 16 + epoch), count: 93).base64EncodedString()
    }

    func rotation(
        _ epoch: Int, members: [String], invites: [(String, String)] = [], remove: [String]? = nil
    ) -> RotateTripKeyRequestDTO {
        RotateTripKeyRequestDTO(
            epoch: epoch, previousKey: Self.chained,
            members: members.map { TripWrappedKeyDTO(username: $0, sealedKey: Self.sealed(for: $0, epoch: epoch)) },
            invites: invites.map {
                TripWrappedKeyDTO(username: $0.1, invite: $0.0, sealedKey: Self.sealed(for: $0.1, epoch: epoch))
            },
            remove: remove)
    }

    func rotate(_ request: RotateTripKeyRequestDTO, token: String? = nil) async -> HTTPResponse {
        await harness.sharingRequest("POST", WireRoutes.tripKeys(trip), token: token ?? alice, request)
    }

    func keys(token: String) async throws -> TripKeysDTO {
        let response = await harness.sharingRequest("GET", WireRoutes.tripKeys(trip), token: token)
        try #require(response.status == 200, "GET keys answered \(response.status): \(response.text)")
        return try response.decoded(TripKeysDTO.self)
    }

    func entry(token: String) async throws -> TripEntryDTO? {
        try await harness.tripsFeed(token: token).trips.first { $0.id == trip }
    }

    @Test(arguments: StoreKind.allCases) func aRemovalRotatesTheKeyForTheMembersWhoStayOnly(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let before = try await keys(token: alice)
        let rotated = await rotate(rotation(2, members: ["alice", "carol"], remove: ["bob"]))
        let after = try await keys(token: carol)
        let carolsEntry = try #require(try await entry(token: carol))
        let alicesEntry = try #require(try await entry(token: alice))
        let bobsRead = await harness.sharingRequest("GET", WireRoutes.tripKeys(trip), token: bob)

        #expect(before.epoch == 1 && before.chain.isEmpty && !before.rekeyDue)
        #expect(rotated.status == 200)
        #expect(try rotated.decoded(TripKeyRotatedDTO.self).epoch == 2)
        #expect(after.epoch == 2)
        #expect(after.chain == [TripKeyLinkDTO(epoch: 2, previousKey: Self.chained)])
        #expect(after.members.map(\.username) == ["alice", "carol"])
        #expect(after.invites.isEmpty)
        #expect(carolsEntry.keyEpoch == 2)
        #expect(carolsEntry.keyForm == TripKeyEpoch.sealedForm)
        #expect(carolsEntry.wrappedKey == Self.sealed(for: "carol", epoch: 2))
        #expect(alicesEntry.wrappedKey == Self.sealed(for: "alice", epoch: 2))
        #expect(alicesEntry.rekeyDue == nil)
        #expect(bobsRead.status == 403)
        #expect(bobsRead.text.contains("removed_from_trip"))
        let bobsFeed = try await harness.tripsFeed(token: bob).trips.first { $0.id == trip }
        #expect(bobsFeed?.removed == true)
        #expect(bobsFeed?.wrappedKey == "")
    }

    @Test(arguments: StoreKind.allCases) func valuesSealedWithAReplacedKeyAreRefusedAndNothingApplies(
        store: StoreKind
    ) async throws {
        try await setUp(store)
        let applied = ServerHarness.uuid()
        _ = try await harness.ops(trip, [TripValue.op(nil, "title", "Lisbon")], opID: applied, token: bob)
        #expect(await rotate(rotation(2, members: ["alice", "bob", "carol"])).status == 200)
        let revision = try await harness.snapshot(trip, token: alice).trip.revision

        let stale = await harness.opsResponse(trip, [TripValue.op(nil, "notes", "old key")], token: bob)
        let replay = await harness.opsResponse(trip, [TripValue.op(nil, "title", "Lisbon")], opID: applied, token: bob)
        let current = await harness.opsResponse(
            trip,
            [
                TripOpDTO(
                    item: nil, field: "notes", value: "e2." + TripValue.sealed("new"), valueHash: TripValue.hash("new"),
                    baseRevision: 0)
            ],
            token: bob)
        let ahead = await harness.opsResponse(
            trip,
            [
                TripOpDTO(
                    item: nil, field: "title", value: "e3." + TripValue.sealed("x"), valueHash: TripValue.hash("x"),
                    baseRevision: 0)
            ],
            token: bob)
        let malformed = await harness.opsResponse(
            trip,
            [
                TripOpDTO(
                    item: nil, field: "title", value: "e02." + TripValue.sealed("x"), valueHash: TripValue.hash("x"),
                    baseRevision: 0)
            ],
            token: bob)
        let deleteStillPlain = await harness.opsResponse(
            trip, [TripValue.deleted(ServerHarness.uuid(), true, base: 0)], token: alice)

        #expect(stale.status == 409)
        #expect(stale.text.contains("trip_key_rotated"))
        #expect(stale.text.contains("epoch 2"))
        #expect(replay.status == 200, "a request applied before the rotation still replays: \(replay.text)")
        #expect(replay.headers["Idempotent-Replayed"] == "true")
        #expect(current.status == 200)
        #expect(ahead.status == 409)
        #expect(malformed.status == 400)
        #expect(deleteStillPlain.status == 200)
        let notes = try await harness.snapshot(trip, token: alice).fields.filter { $0.field == "notes" }
        #expect(notes.map(\.value) == ["e2." + TripValue.sealed("new")])
        #expect(try await harness.snapshot(trip, token: alice).trip.revision > revision)
    }

    @Test(arguments: StoreKind.allCases) func valuesSealedWithAnotherKeyOfTheCurrentEpochAreRefused(
        store: StoreKind
    ) async throws {
        // A server restored from a backup taken before a rotation, then rotated again, gives an
        // epoch out twice: the rotation's key check tells the two keys apart.
        try await setUp(store)
        let check = String(repeating: "A", count: TripKeyCheckText.length)
        let other = String(repeating: "B", count: TripKeyCheckText.length)
        var request = rotation(2, members: ["alice", "bob", "carol"])
        request.keyCheck = check
        #expect(await rotate(request).status == 200)
        func send(_ plain: String, keyCheck: String?, field: String = "notes") async -> HTTPResponse {
            let op = TripOpDTO(
                item: nil, field: field, value: "e2." + TripValue.sealed(plain), valueHash: TripValue.hash(plain),
                baseRevision: 0)
            let body = WireJSON.encode(TripOpsRequestDTO(opId: ServerHarness.uuid(), ops: [op], keyCheck: keyCheck))
            return await harness.opsResponse(trip, body: body, token: bob)
        }

        let otherKey = await send("sealed with another key", keyCheck: other)
        let sameKey = await send("sealed with the key", keyCheck: check)
        let unchecked = await send("from a device that sends no check", keyCheck: nil, field: "title")
        let malformed = await send("x", keyCheck: "not a check")

        #expect(otherKey.status == 409)
        #expect(otherKey.text.contains("trip_key_rotated"))
        #expect(sameKey.status == 200)
        #expect(unchecked.status == 200)
        #expect(malformed.status == 400)
        let fields = try await harness.snapshot(trip, token: alice).fields
        #expect(fields.filter { $0.field == "notes" }.map(\.value) == ["e2." + TripValue.sealed("sealed with the key")])
        #expect(
            fields.filter { $0.field == "title" }.map(\.value)
                == ["e2." + TripValue.sealed("from a device that sends no check")])
    }

    @Test(arguments: StoreKind.allCases) func aRotationThatMissesAMemberOrInviteChangesNothing(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let dan = try await harness.sharingToken("dan", seed: 4)
        let invited = try await harness.inviteResponse(trip, "dan", role: "viewer", token: alice)
            .decoded(TripInviteDTO.self)
        let plan = try await keys(token: alice)
        let joinToken = Data(repeating: 1, count: 32)
        let link = await harness.sharingRequest(
            "POST", WireRoutes.tripLinks(trip), token: alice,
            CreateTripLinkRequestDTO(
                role: "viewer", sealedKey: TripValue.wrappedKey, tokenHash: SHA256Digest.hex(joinToken)))
        #expect(link.status == 201)
        let linkID = try link.decoded(TripLinkDTO.self).id
        let openLink = TripLinkJoinRequestDTO(token: joinToken.base64EncodedString())
        #expect(await harness.sharingRequest("POST", WireRoutes.openLink(linkID), token: dan, openLink).status == 200)

        let missingInvite = await rotate(rotation(2, members: ["alice", "bob"], remove: ["carol"]))
        let missingMember = await rotate(
            rotation(2, members: ["alice"], invites: [(invited.id, "dan")], remove: ["carol"]))
        let keepsRemoved = await rotate(
            rotation(2, members: ["alice", "bob", "carol"], invites: [(invited.id, "dan")], remove: ["carol"]))
        let skipsAnEpoch = await rotate(
            rotation(3, members: ["alice", "bob", "carol"], invites: [(invited.id, "dan")]))
        let byAnEditor = await rotate(
            rotation(2, members: ["alice", "bob", "carol"], invites: [(invited.id, "dan")]), token: bob)
        let removesNobody = await rotate(
            rotation(2, members: ["alice", "bob", "carol"], invites: [(invited.id, "dan")], remove: ["zed"]))
        let removesItself = await rotate(
            rotation(2, members: ["bob", "carol"], invites: [(invited.id, "dan")], remove: ["alice"]))
        let unchanged = try await keys(token: alice)

        #expect(
            plan.invites == [
                TripKeyInviteeDTO(invite: invited.id, username: "dan", publicKey: SharingValue.publicKey(4))
            ])
        #expect(try await keys(token: bob).invites.isEmpty, "only owners see the pending invitations")
        #expect(missingInvite.status == 409 && missingInvite.text.contains("members_changed"))
        #expect(missingMember.status == 409 && missingMember.text.contains("members_changed"))
        #expect(keepsRemoved.status == 409)
        #expect(skipsAnEpoch.status == 409 && skipsAnEpoch.text.contains("trip_key_rotated"))
        #expect(byAnEditor.status == 403)
        #expect(removesNobody.status == 404)
        #expect(removesItself.status == 404)
        #expect(unchanged == plan)
        #expect(try await harness.members(trip, token: alice).map(\.username) == ["alice", "bob", "carol"])

        let rotated = await rotate(
            rotation(2, members: ["alice", "bob"], invites: [(invited.id, "dan")], remove: ["carol"]))
        #expect(rotated.status == 200)
        let waiting = try #require(try await harness.invites(token: dan).first)
        #expect(waiting.keyEpoch == 2)
        #expect(waiting.sealedKey == Self.sealed(for: "dan", epoch: 2))
        let joined = await harness.acceptResponse(waiting.id, token: dan)
        #expect(try joined.decoded(TripEntryDTO.self).keyEpoch == 2)
        #expect(try joined.decoded(TripEntryDTO.self).keyForm == nil, "accepting wraps it with dan's notes key")
        let opened = await harness.sharingRequest("POST", WireRoutes.openLink(linkID), token: dan, openLink)
        #expect(opened.status == 404, "a rotation revokes the links that held the old key")
    }

    @Test(arguments: StoreKind.allCases) func aMemberLeavingLeavesTheRotationDueForOwnersOnly(store: StoreKind)
        async throws
    {
        try await setUp(store)
        #expect(await harness.removeResponse(trip, "carol", token: carol).status == 204)
        let alicesEntry = try #require(try await entry(token: alice))
        let bobsEntry = try #require(try await entry(token: bob))
        let due = try await keys(token: alice)

        #expect(alicesEntry.rekeyDue == true)
        #expect(bobsEntry.rekeyDue == nil)
        #expect(due.rekeyDue)
        #expect(await rotate(rotation(2, members: ["alice", "bob"])).status == 200)
        #expect(try await entry(token: alice)?.rekeyDue == nil)
        #expect(try await keys(token: bob).rekeyDue == false)

        // Invitations and links made from now on must seal the new key.
        let staleInvite = await harness.inviteResponse(trip, "carol", role: "viewer", token: alice)
        let currentInvite = await harness.sharingRequest(
            "POST", WireRoutes.tripInvites(trip), token: alice,
            TripInviteRequestDTO(username: "carol", role: "viewer", sealedKey: SharingValue.sealedKey, keyEpoch: 2))
        let staleLink = await harness.sharingRequest(
            "POST", WireRoutes.tripLinks(trip), token: alice,
            CreateTripLinkRequestDTO(
                role: "viewer", sealedKey: TripValue.wrappedKey, tokenHash: String(repeating: "b", count: 64)))
        #expect(staleInvite.status == 409 && staleInvite.text.contains("trip_key_rotated"))
        #expect(currentInvite.status == 201)
        #expect(try currentInvite.decoded(TripInviteDTO.self).keyEpoch == 2)
        #expect(staleLink.status == 409)
    }
}
