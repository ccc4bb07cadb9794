import Foundation
import QuireCrypto
import QuireWire
import Testing

@testable import QuireServer

/// Invite links (issue 15) on both stores: made by owners, opened and joined only with the token
/// from the link's secret, refused once expired, revoked or used up.
final class TripLinkRouteTests {
    private(set) var harness: ServerHarness!
    private(set) var alice = ""
    private(set) var trip = ""
    let token = Data(repeating: 4, count: 32)

    func setUp(_ store: StoreKind) async throws {
        harness = try await ServerHarness(store: store)
        alice = try await harness.sharingToken("alice", seed: 1)
        trip = try await harness.newTrip(token: alice)
    }

    private func makeLink(by owner: String? = nil, hours: Int? = nil, uses: Int? = nil) async -> HTTPResponse {
        await harness.sharingRequest(
            "POST", WireRoutes.tripLinks(trip), token: owner ?? alice,
            CreateTripLinkRequestDTO(
                role: "viewer", sealedKey: TripValue.wrappedKey, tokenHash: SHA256Digest.hex(token),
                expiresInHours: hours, maxUses: uses))
    }

    private func use(_ link: String, joining: Bool, by account: String, token: Data? = nil) async -> HTTPResponse {
        let body = TripLinkJoinRequestDTO(
            token: (token ?? self.token).base64EncodedString(), wrappedKey: joining ? TripValue.wrappedKey : nil)
        return await harness.sharingRequest(
            "POST", joining ? WireRoutes.joinLink(link) : WireRoutes.openLink(link), token: account, body)
    }

    @Test(arguments: StoreKind.allCases) func aLinkJoinsWithItsTokenAndOnlyAsOftenAsItSays(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let dave = try await harness.token("dave")
        let erin = try await harness.token("erin")
        let made = await makeLink(uses: 1)
        let link = try made.decoded(TripLinkDTO.self)

        let wrongToken = await use(link.id, joining: false, by: dave, token: Data(repeating: 5, count: 32))
        let opened = await use(link.id, joining: false, by: dave)
        let joined = await use(link.id, joining: true, by: dave)
        let again = await use(link.id, joining: true, by: dave)
        let usedUp = await use(link.id, joining: true, by: erin)

        #expect(made.status == 201)
        #expect(link.usesLeft == 1)
        #expect(wrongToken.status == 404)
        #expect(wrongToken.errorCode == "link_unusable")
        #expect(try opened.decoded(TripLinkDTO.self).sealedKey == TripValue.wrappedKey)
        #expect(try joined.decoded(TripEntryDTO.self).role == "viewer")
        #expect(again.status == 404)
        #expect(usedUp.errorCode == "link_unusable")
        #expect(try await harness.members(trip, token: alice).map(\.username) == ["alice", "dave"])
        #expect(await harness.snapshotResponse(trip, token: erin).status == 404)
    }

    @Test(arguments: StoreKind.allCases) func anExpiredOrRevokedLinkIsRefused(store: StoreKind) async throws {
        try await setUp(store)
        let expiring = try await makeLink(hours: 1, uses: 5).decoded(TripLinkDTO.self)
        let revoked = try await makeLink(uses: 5).decoded(TripLinkDTO.self)

        let revoke = await harness.sharingRequest("DELETE", WireRoutes.tripLink(trip, revoked.id), token: alice)
        harness.clock.advance(by: 3601)
        // (Signed in after the clock moved: an access token lasts an hour too.)
        let dave = try await harness.token("dave")

        #expect(revoke.status == 204)
        #expect(await use(expiring.id, joining: true, by: dave).errorCode == "link_unusable")
        #expect(await use(revoked.id, joining: true, by: dave).errorCode == "link_unusable")
        #expect(await harness.snapshotResponse(trip, token: dave).status == 404)
    }

    @Test(arguments: StoreKind.allCases) func onlyOwnersMakeAndRevokeLinks(store: StoreKind) async throws {
        try await setUp(store)
        let bob = try await harness.sharingToken("bob", seed: 2)
        try await harness.share(trip, with: "bob", role: "editor", owner: alice, token: bob)
        let link = try await makeLink().decoded(TripLinkDTO.self)

        let made = await makeLink(by: bob)
        let revoke = await harness.sharingRequest("DELETE", WireRoutes.tripLink(trip, link.id), token: bob)
        let tooLong = await makeLink(hours: 721)
        // A link made by an owner who is no longer one does not work.
        #expect(await harness.roleResponse(trip, "bob", "owner", token: alice).status == 204)
        let bobsLink = try await makeLink(by: bob).decoded(TripLinkDTO.self)
        #expect(await harness.roleResponse(trip, "bob", "viewer", token: alice).status == 204)
        let dave = try await harness.token("dave")

        #expect(made.status == 403)
        #expect(revoke.status == 403)
        #expect(tooLong.status == 400)
        #expect(await use(bobsLink.id, joining: true, by: dave).errorCode == "link_unusable")
        #expect(await use(link.id, joining: true, by: dave).status == 200)
    }
}
