import Foundation
import Observation
import QuireTrips

/// The members sheet's brain (issue 15): a shared trip's members with their roles and keys, read
/// when the sheet asks, and what this account's role allows: only owners invite, change roles
/// and remove; anyone leaves, warned first of changes that would be lost.
@MainActor
@Observable
public final class TripMembersViewModel {
    public private(set) var viewState = TripMembersState()

    let repository: any TripMembersRepository
    let trip: TripID
    let title: String
    @ObservationIgnored private var members: [TripMember] = []
    /// The invitation waiting on a changed key's confirmation.
    @ObservationIgnored private var pendingInvite: (username: String, role: TripMemberRole)?

    public init(members: any TripMembersRepository, trip: TripID, title: String) {
        repository = members
        self.trip = trip
        self.title = title
    }

    /// This account's role in the trip, once read.
    var yourRole: TripMemberRole? {
        members.first { $0.username == repository.username }?.role
    }

    var isOwner: Bool { yourRole == .owner }

    /// Reads the members (again). A failed read keeps what was shown and says why.
    public func load() async {
        viewState.isLoading = true
        defer { viewState.isLoading = false }
        do {
            members = try await repository.members(of: trip)
            viewState.problem = nil
            viewState.hasLoaded = true
            publish()
        } catch {
            viewState.problem = "Couldn't read the members: \(error)"
        }
    }

    /// Invites `username` as `role` (editor or viewer); owners only. A changed key is asked
    /// about first (``TripMembersState/keyConfirmation``).
    public func invite(_ username: String, as role: TripMemberRole) async {
        guard isOwner, Self.inviteRoles.contains(role) else { return }
        let name = username.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !name.isEmpty else {
            viewState.problem = "Enter the username of the person to invite."
            return
        }
        await share(name, role: role, trustingNewKey: false)
    }

    /// Invites the person whose changed key was asked about, with that key.
    public func inviteTrustingNewKey() async {
        guard let pending = pendingInvite else { return }
        await share(pending.username, role: pending.role, trustingNewKey: true)
    }

    /// Invites nobody: the changed key was not taken.
    public func cancelInvite() {
        pendingInvite = nil
        viewState.keyConfirmation = nil
    }

    /// Makes an invite link for `role` (editor or viewer); owners only.
    public func makeLink(for role: TripMemberRole) async {
        guard isOwner, Self.inviteRoles.contains(role) else { return }
        await act("make an invite link") {
            let text = try await self.repository.inviteLink(to: self.trip, role: role)
            self.viewState.link = TripInviteLinkText(
                text: text,
                note: "Anyone with this link can join “\(self.title)” as \(role.rawValue), once, within 7 days: "
                    + "send it privately.")
        }
    }

    /// Revokes the invite link just made; owners only.
    public func revokeLink() async {
        guard isOwner, let link = viewState.link else { return }
        await act("revoke the link") {
            try await self.repository.revokeLink(link.text, of: self.trip)
            self.viewState.link = nil
            self.viewState.message = "Revoked: the link no longer lets anyone join “\(self.title)”."
        }
    }

    /// Gives `member` the role; owners only, never their own.
    public func setRole(_ role: TripMemberRole, of member: String) async {
        guard isOwner, member != repository.username, members.contains(where: { $0.username == member }) else { return }
        await act("change \(member)'s role") {
            try await self.repository.setRole(role, of: member, in: self.trip)
            self.viewState.message = "\(member) is now \(role.rawValue == "owner" ? "an" : "a") \(role.rawValue)."
            await self.load()
        }
    }

    /// Removes `member`; owners only, never themselves.
    public func remove(_ member: String) async {
        guard isOwner, member != repository.username, members.contains(where: { $0.username == member }) else { return }
        await act("remove \(member)") {
            try await self.repository.remove(member, from: self.trip)
            await self.load()
            self.viewState.message = "Removed \(member); the trip has a new key they don't have."
        }
    }

    /// Says what leaving would lose, in ``TripMembersState/leaveConfirmation``.
    public func prepareLeave() async {
        await act("check for changes that haven't synced") {
            let unsent = try await self.repository.unsentChanges(of: self.trip)
            self.viewState.leaveConfirmation =
                switch unsent {
                case 0: "Leave “\(self.title)”? Its copy on this device is deleted."
                case 1: "1 change to “\(self.title)” hasn't synced and would be lost. Sync first, or leave anyway."
                default:
                    "\(unsent) changes to “\(self.title)” haven't synced and would be lost. Sync first, or leave anyway."
                }
        }
    }

    /// Leaves the trip; the sheet and the trip close (``TripMembersState/hasLeft``).
    public func leave() async {
        viewState.leaveConfirmation = nil
        await act("leave “\(title)”") {
            try await self.repository.leave(self.trip)
            self.viewState.hasLeft = true
        }
    }

    /// Invitations give these roles; an owner is made by a role change.
    static let inviteRoles: [TripMemberRole] = [.editor, .viewer]

    private func share(_ username: String, role: TripMemberRole, trustingNewKey: Bool) async {
        cancelInvite()
        viewState.message = nil
        viewState.problem = nil
        do {
            let person = try await repository.share(trip, with: username, role: role, trustingNewKey: trustingNewKey)
            await load()
            viewState.message =
                "Invited \(person.username) as \(role.rawValue). Their key is \(person.fingerprint): compare it with "
                + "them. They join from their invitations."
        } catch TripMembersError.keyChanged(let name, let fingerprint) {
            pendingInvite = (username, role)
            viewState.keyConfirmation =
                "\(name)'s key changed since this device first saw it (now \(fingerprint)). Compare it with them; "
                + "invite them with this key?"
        } catch {
            viewState.problem = "Couldn't invite \(username): \(error)"
        }
    }

    /// Runs `action`, clearing the last message; a failure is said as "Couldn't <what>: why".
    private func act(_ what: String, _ action: () async throws -> Void) async {
        viewState.message = nil
        viewState.problem = nil
        if let failure = await ScreenAction.failure(what, action) { viewState.problem = failure }
    }

    private func publish() {
        let you = repository.username
        let role = yourRole
        viewState.rows = members.sorted {
            (Self.rank($0.role), $0.username) < (Self.rank($1.role), $1.username)
        }.map { TripMemberRow($0, you: you, yourRole: role, tripTitle: title) }
        viewState.canInvite = role == .owner
        viewState.inviteRoles = role == .owner ? Self.inviteRoles : []
    }

    private static func rank(_ role: TripMemberRole) -> Int {
        TripMemberRole.allCases.firstIndex(of: role) ?? 0
    }
}
