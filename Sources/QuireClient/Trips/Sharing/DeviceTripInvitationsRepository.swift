import Foundation
import QuireTrips

/// Joining others' trips for the app's invitations screen, as `quire trip invites`, `accept`,
/// `decline` and `join` do it: through ``TripSharing`` (online). The trip joined arrives with the
/// next sync.
public struct DeviceTripInvitationsRepository: TripInvitationsRepository {
    private let sharing: TripSharing

    public init(sharing: TripSharing) {
        self.sharing = sharing
    }

    /// Publishes this account's key first (as `quire trip invites` does), so owners can invite it.
    public func invitations() async throws -> [TripInvitation] {
        try await sharing.keyPair()
        return try await sharing.invitations().map {
            TripInvitation(id: $0.id, trip: $0.trip, from: DeviceTripMembersRepository.member($0.from))
        }
    }

    public func accept(_ invitation: String) async throws -> TripJoin {
        Self.join(try await sharing.accept(invitation))
    }

    public func decline(_ invitation: String) async throws {
        try await sharing.decline(invitation)
    }

    public func join(link text: String) async throws -> TripJoin {
        guard let link = InviteLink(text) else { throw TripMembersError.notALink }
        return Self.join(try await sharing.join(link))
    }

    private static func join(_ joined: (trip: TripID, role: String)) -> TripJoin {
        TripJoin(trip: joined.trip, role: TripMemberRole(server: joined.role))
    }
}
