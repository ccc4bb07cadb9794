import Foundation
import QuireTrips
import Testing

@testable import QuirePresentation

/// Joining a trip in the app (issue 15, as `quire trip invites`, `accept`, `decline` and `join`):
/// the invitations waiting with who sent them and their key, a warning when that key changed;
/// accepting or joining by link asks for a sync, which brings the trip.
@MainActor
struct TripInvitationsViewModelTests {
    static let fromAna = TripInvitation(
        id: "inv-1", trip: TripID(), from: TripMember(username: "ana", role: .owner, fingerprint: "AAAA-BBBB-CCCC-DDDD")
    )
    static let fromBob = TripInvitation(
        id: "inv-2", trip: TripID(),
        from: TripMember(
            username: "bob", role: .owner, fingerprint: "EEEE-FFFF-GGGG-HHHH", keyChangedFrom: "JJJJ-KKKK-MMMM-NNNN"))

    func model(_ invitations: [TripInvitation] = [fromAna, fromBob]) -> (
        TripInvitationsViewModel, FakeTripInvitations, FakeSyncRequester
    ) {
        let repository = FakeTripInvitations(invitations)
        let sync = FakeSyncRequester()
        return (TripInvitationsViewModel(invitations: repository, sync: sync), repository, sync)
    }

    @Test func nothingIsReadUntilTheScreenAsks() async {
        let (model, repository, _) = model()
        #expect(repository.readCount == 0)
        #expect(!model.viewState.hasLoaded)
        await model.load()
        #expect(repository.readCount == 1)
        #expect(model.viewState.hasLoaded)
    }

    @Test func eachInvitationSaysWhoSentItAndTheirKey() async throws {
        let (model, _, _) = model()
        await model.load()
        let rows = model.viewState.rows
        try #require(rows.count == 2)

        #expect(rows.map(\.id) == ["inv-1", "inv-2"])
        #expect(rows.map(\.from) == ["From ana", "From bob"])
        #expect(rows.map(\.key) == ["Key AAAA-BBBB-CCCC-DDDD", "Key EEEE-FFFF-GGGG-HHHH"])
        #expect(rows[0].warning == nil)
        #expect(
            rows[1].warning
                == "bob's key changed: this device first saw JJJJ-KKKK-MMMM-NNNN. Compare it with them before "
                + "joining.")
    }

    @Test func noInvitationsSaysSo() async {
        let (model, _, _) = model([])
        await model.load()
        #expect(model.viewState.empty == "No invitations waiting. Ask the trip's owner to invite you, or join by link.")
    }

    @Test func acceptingJoinsAndAsksForTheSyncThatBringsTheTrip() async {
        let (model, repository, sync) = model()
        await model.load()
        await model.accept("inv-1")

        #expect(repository.calls == ["accept inv-1"])
        #expect(sync.requests == 1)
        #expect(model.viewState.rows.map(\.id) == ["inv-2"])
        #expect(model.viewState.message == "Joined ana's trip as editor. It arrives with the next sync.")
        #expect(model.viewState.joined == Self.fromAna.trip)
    }

    @Test func decliningRemovesTheInvitation() async {
        let (model, repository, sync) = model()
        await model.load()
        await model.decline("inv-2")
        #expect(repository.calls == ["decline inv-2"])
        #expect(sync.requests == 0)
        #expect(model.viewState.rows.map(\.id) == ["inv-1"])
        #expect(model.viewState.message == "Declined bob's invitation.")
    }

    @Test func joiningByLinkTakesTheWholeLink() async {
        let (model, repository, sync) = model([])
        await model.join(link: "   ")
        #expect(model.viewState.problem == "Paste the whole invite link (https://SERVER/join/ID#SECRET).")

        await model.join(link: "https://quire.example/join/abc")
        #expect(
            model.viewState.problem
                == "Couldn't join: that is not a whole invite link (https://SERVER/join/ID#SECRET); copy all of it")

        await model.join(link: "  \(FakeTripInvitations.link)\n")
        #expect(repository.calls == ["join \(FakeTripInvitations.link)"])
        #expect(sync.requests == 1)
        #expect(model.viewState.problem == nil)
        #expect(model.viewState.message == "Joined the trip as viewer. It arrives with the next sync.")
        #expect(model.viewState.joined == FakeTripInvitations.linkedTrip)
    }

    @Test func failuresSayWhyAndKeepTheInvitations() async {
        let (model, repository, sync) = model()
        await model.load()
        repository.fail()
        await model.load()
        #expect(model.viewState.problem == "Couldn't read your invitations: the server can't be reached")
        await model.accept("inv-1")
        #expect(model.viewState.problem == "Couldn't join ana's trip: the server can't be reached")
        await model.decline("inv-1")
        #expect(model.viewState.problem == "Couldn't decline ana's invitation: the server can't be reached")
        #expect(model.viewState.rows.count == 2)
        #expect(sync.requests == 0)
        #expect(model.viewState.joined == nil)
    }
}
