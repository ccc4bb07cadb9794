import Foundation
import QuireTrips
import Testing

@testable import QuirePresentation

/// The members sheet of a shared trip (issue 15, as `quire trip members`, `share`, `invite`,
/// `role`, `remove` and `leave`): who is in it with their role and key, a warning when a key
/// changed, and only what this account's role may do.
@MainActor
struct TripMembersViewModelTests {
    static let trip = TripID()
    static let ana = TripMember(username: "ana", role: .owner, fingerprint: "AAAA-BBBB-CCCC-DDDD")
    static let bob = TripMember(
        username: "bob", role: .editor, fingerprint: "EEEE-FFFF-GGGG-HHHH", keyChangedFrom: "JJJJ-KKKK-MMMM-NNNN")
    static let cy = TripMember(username: "cy", role: .viewer, fingerprint: "")
    static let members = [cy, bob, ana]

    func model(you: String = "ana", _ members: [TripMember] = members, unsent: Int = 0) -> (
        TripMembersViewModel, FakeTripMembers
    ) {
        let repository = FakeTripMembers(you: you, members, unsent: unsent)
        return (TripMembersViewModel(members: repository, trip: Self.trip, title: "Lisbon"), repository)
    }

    func loaded(you: String = "ana", _ members: [TripMember] = members, unsent: Int = 0) async -> (
        TripMembersViewModel, FakeTripMembers
    ) {
        let (model, repository) = model(you: you, members, unsent: unsent)
        await model.load()
        return (model, repository)
    }

    @Test func nothingIsReadUntilTheSheetAsks() async {
        let (model, repository) = model()
        #expect(repository.readCount == 0)
        #expect(!model.viewState.hasLoaded)
        await model.load()
        #expect(repository.readCount == 1)
        #expect(model.viewState.hasLoaded)
    }

    @Test func membersShowTheirRoleAndKeyOwnersFirst() async {
        let (model, _) = await loaded()
        let rows = model.viewState.rows

        #expect(rows.map(\.id) == ["ana", "bob", "cy"])
        #expect(rows.map(\.name) == ["ana (you)", "bob", "cy"])
        #expect(rows.map(\.role) == ["Owner", "Editor", "Viewer"])
        #expect(rows.map(\.key) == ["Key AAAA-BBBB-CCCC-DDDD", "Key EEEE-FFFF-GGGG-HHHH", "No key yet"])
    }

    @Test func aChangedKeyIsAWarning() async throws {
        let (model, _) = await loaded()
        try #require(model.viewState.rows.count == 3)
        #expect(
            model.viewState.rows[1].warning
                == "bob's key changed: this device first saw JJJJ-KKKK-MMMM-NNNN. Compare it with them before "
                + "sharing more with them.")
        #expect(model.viewState.rows[0].warning == nil)
    }

    @Test func anOwnerInvitesChangesRolesAndRemovesOthers() async throws {
        let (model, _) = await loaded()
        let state = model.viewState
        try #require(state.rows.count == 3)

        #expect(state.canInvite)
        #expect(state.inviteRoles == [.editor, .viewer])
        #expect(state.rows.map(\.canRemove) == [false, true, true])
        #expect(state.rows.map(\.roleChoices) == [[], [.owner, .viewer], [.owner, .editor]])
        #expect(
            state.rows[1].removeConfirmation == "Remove bob from “Lisbon”? The trip gets a new key they don't have.")
    }

    @Test func anEditorOrViewerMayOnlyLook() async {
        for you in ["bob", "cy"] {
            let (model, repository) = await loaded(you: you)
            let state = model.viewState
            #expect(!state.canInvite)
            #expect(state.inviteRoles.isEmpty)
            #expect(state.rows.allSatisfy { !$0.canRemove && $0.roleChoices.isEmpty })

            await model.invite("dee", as: .viewer)
            await model.makeLink(for: .viewer)
            await model.setRole(.viewer, of: "ana")
            await model.remove("ana")
            #expect(repository.calls.isEmpty)
        }
    }

    @Test func invitingSaysTheirKeyAndReadsTheMembersAgain() async {
        let (model, repository) = await loaded()
        await model.invite("  Dee ", as: .viewer)

        #expect(repository.calls == ["share dee viewer"])
        #expect(
            model.viewState.message
                == "Invited dee as viewer. Their key is NEW0-KEY0-FOR0-dee: compare it with them. They join from their "
                + "invitations.")
        #expect(model.viewState.rows.map(\.id).contains("dee"))
    }

    @Test func anInviteNeedsAUsernameAndNeverMakesAnOwner() async {
        let (model, repository) = await loaded()
        await model.invite("  ", as: .editor)
        #expect(model.viewState.problem == "Enter the username of the person to invite.")
        await model.invite("dee", as: .owner)
        #expect(repository.calls.isEmpty)
    }

    @Test func aChangedKeyIsConfirmedBeforeInviting() async {
        let (model, repository) = await loaded()
        repository.changeKey(of: "bob", to: "ZZZZ-YYYY-XXXX-WWWW")
        await model.invite("bob", as: .editor)

        #expect(repository.calls.isEmpty)
        #expect(
            model.viewState.keyConfirmation
                == "bob's key changed since this device first saw it (now ZZZZ-YYYY-XXXX-WWWW). Compare it with them; "
                + "invite them with this key?")
        await model.inviteTrustingNewKey()
        #expect(repository.calls == ["share bob editor trusting"])
        #expect(model.viewState.keyConfirmation == nil)
    }

    @Test func aDeclinedKeyInvitesNobody() async {
        let (model, repository) = await loaded()
        repository.changeKey(of: "bob", to: "ZZZZ-YYYY-XXXX-WWWW")
        await model.invite("bob", as: .editor)
        model.cancelInvite()
        await model.inviteTrustingNewKey()
        #expect(repository.calls.isEmpty)
        #expect(model.viewState.keyConfirmation == nil)
    }

    @Test func aLinkIsShownWithWhoItLetsIn() async {
        let (model, repository) = await loaded()
        await model.makeLink(for: .viewer)
        #expect(repository.calls == ["link viewer"])
        #expect(
            model.viewState.link
                == TripInviteLinkText(
                    text: "https://quire.example/join/abc#secret",
                    note: "Anyone with this link can join “Lisbon” as viewer, once, within 7 days: send it privately."))
    }

    @Test func theLinkJustMadeCanBeRevoked() async {
        let (model, repository) = await loaded()
        await model.revokeLink()
        #expect(repository.calls.isEmpty)  // No link made yet: nothing to revoke.

        await model.makeLink(for: .editor)
        await model.revokeLink()
        #expect(repository.calls == ["link editor", "revoke https://quire.example/join/abc#secret"])
        #expect(model.viewState.link == nil)
        #expect(model.viewState.message == "Revoked: the link no longer lets anyone join “Lisbon”.")
    }

    @Test func changingARoleReadsTheMembersAgain() async {
        let (model, repository) = await loaded()
        await model.setRole(.viewer, of: "bob")
        #expect(repository.calls == ["role bob viewer"])
        #expect(model.viewState.rows.first { $0.id == "bob" }?.role == "Viewer")
    }

    @Test func removingAMemberSaysTheTripHasANewKey() async {
        let (model, repository) = await loaded()
        await model.remove("bob")
        #expect(repository.calls == ["remove bob"])
        #expect(model.viewState.message == "Removed bob; the trip has a new key they don't have.")
        #expect(model.viewState.rows.map(\.id) == ["ana", "cy"])
    }

    @Test func nobodyRemovesThemselves() async {
        let (model, repository) = await loaded()
        await model.remove("ana")
        #expect(repository.calls.isEmpty)
    }

    @Test func leavingWarnsOfChangesThatHaveNotSynced() async {
        let (model, _) = await loaded(you: "bob", unsent: 3)
        await model.prepareLeave()
        #expect(
            model.viewState.leaveConfirmation
                == "3 changes to “Lisbon” haven't synced and would be lost. Sync first, or leave anyway.")

        let (one, _) = await loaded(you: "bob", unsent: 1)
        await one.prepareLeave()
        #expect(
            one.viewState.leaveConfirmation
                == "1 change to “Lisbon” hasn't synced and would be lost. Sync first, or leave anyway.")

        let (none, _) = await loaded(you: "bob")
        await none.prepareLeave()
        #expect(none.viewState.leaveConfirmation == "Leave “Lisbon”? Its copy on this device is deleted.")
    }

    @Test func leavingLeaves() async {
        let (model, repository) = await loaded(you: "bob")
        await model.prepareLeave()
        await model.leave()
        #expect(repository.calls == ["leave"])
        #expect(model.viewState.hasLeft)
        #expect(model.viewState.leaveConfirmation == nil)
    }

    @Test func failuresSayWhyAndKeepTheMembers() async {
        let (model, repository) = await loaded()
        repository.fail()
        await model.load()
        #expect(model.viewState.problem == "Couldn't read the members: the server can't be reached")
        #expect(model.viewState.rows.count == 3)

        await model.invite("dee", as: .editor)
        #expect(model.viewState.problem == "Couldn't invite dee: the server can't be reached")
        await model.remove("bob")
        #expect(model.viewState.problem == "Couldn't remove bob: the server can't be reached")
        await model.prepareLeave()
        await model.leave()
        #expect(model.viewState.problem == "Couldn't leave “Lisbon”: the server can't be reached")
        #expect(!model.viewState.hasLeft)
    }
}
