import Foundation
import Observation
import QuireTrips

/// The invitations screen's brain (issue 15): the invitations waiting for this account, read when
/// the screen asks, with each inviter's key; accepting one or joining by link, then asking for the
/// sync that brings the trip; declining one.
@MainActor
@Observable
public final class TripInvitationsViewModel {
    public private(set) var viewState = TripInvitationsState()

    let repository: any TripInvitationsRepository
    let sync: any SyncRequesting
    @ObservationIgnored private var invitations: [TripInvitation] = []

    public init(invitations: any TripInvitationsRepository, sync: any SyncRequesting) {
        repository = invitations
        self.sync = sync
    }

    /// Reads the invitations (again). A failed read keeps what was shown and says why.
    public func load() async {
        viewState.isLoading = true
        defer { viewState.isLoading = false }
        do {
            invitations = try await repository.invitations()
            viewState.problem = nil
            viewState.hasLoaded = true
            publish()
        } catch {
            viewState.problem = "Couldn't read your invitations: \(error)"
        }
    }

    /// Joins the trip of invitation `id`, then asks for the sync that brings it.
    public func accept(_ id: String) async {
        guard let invitation = invitations.first(where: { $0.id == id }) else { return }
        let owner = invitation.from.username
        await act("join \(owner)'s trip") {
            let joined = try await self.repository.accept(id)
            self.invitations.removeAll { $0.id == id }
            self.publish()
            await self.joined(joined, what: "\(owner)'s trip")
        }
    }

    public func decline(_ id: String) async {
        guard let invitation = invitations.first(where: { $0.id == id }) else { return }
        let owner = invitation.from.username
        await act("decline \(owner)'s invitation") {
            try await self.repository.decline(id)
            self.invitations.removeAll { $0.id == id }
            self.publish()
            self.viewState.message = "Declined \(owner)'s invitation."
        }
    }

    /// Joins by an invite link's whole text (spaces and line ends around it are left out), then
    /// asks for the sync that brings the trip.
    public func join(link text: String) async {
        let link = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !link.isEmpty else {
            viewState.problem = "Paste the whole invite link (https://SERVER/join/ID#SECRET)."
            return
        }
        await act("join") {
            await self.joined(try await self.repository.join(link: link), what: "the trip")
        }
    }

    private func joined(_ join: TripJoin, what: String) async {
        viewState.joined = join.trip
        viewState.message = "Joined \(what) as \(join.role.rawValue). It arrives with the next sync."
        await sync.requestSync()
    }

    /// Runs `action`, clearing the last message and problem; a failure is said as
    /// "Couldn't <what>: why".
    private func act(_ what: String, _ action: () async throws -> Void) async {
        viewState.message = nil
        viewState.problem = nil
        if let failure = await ScreenAction.failure(what, action) { viewState.problem = failure }
    }

    private func publish() {
        viewState.rows = invitations.map(TripInvitationRow.init)
        viewState.empty =
            invitations.isEmpty ? "No invitations waiting. Ask the trip's owner to invite you, or join by link." : nil
    }
}
