import Foundation
import QuireTrips

/// Sharing a trip for the app's members sheet, as `quire trip members`, `share`, `invite`, `role`,
/// `remove` and `leave` do it: through ``TripSharing`` (online) and this device's trips.
public struct DeviceTripMembersRepository: TripMembersRepository {
    private let sharing: TripSharing

    public init(sharing: TripSharing) {
        self.sharing = sharing
    }

    public var username: String { sharing.username }

    public func members(of trip: TripID) async throws -> [TripMember] {
        try await sharing.members(of: trip).map(Self.member)
    }

    public func share(_ trip: TripID, with username: String, role: TripMemberRole, trustingNewKey: Bool) async throws
        -> TripMember
    {
        try await Self.keyChangeAsked {
            Self.member(
                try await sharing.share(trip, with: username, role: role.rawValue, trustingNewKey: trustingNewKey))
        }
    }

    public func inviteLink(to trip: TripID, role: TripMemberRole) async throws -> String {
        try await sharing.inviteLink(to: trip, role: role.rawValue).text
    }

    public func revokeLink(_ link: String, of trip: TripID) async throws {
        try await sharing.revokeLink(link, of: trip)
    }

    public func setRole(_ role: TripMemberRole, of member: String, in trip: TripID) async throws {
        try await sharing.setRole(role.rawValue, of: member, in: trip)
    }

    public func remove(_ member: String, from trip: TripID) async throws {
        try await Self.keyChangeAsked { _ = try await sharing.remove(member, from: trip) }
    }

    public func unsentChanges(of trip: TripID) async throws -> Int {
        try await sharing.database.unsentChanges(of: trip)
    }

    public func leave(_ trip: TripID) async throws {
        _ = try await sharing.leave(trip)
    }

    /// `person` as the members sheet shows them.
    static func member(_ person: TripSharing.Person) -> TripMember {
        var changedFrom: String?
        if case .changed(let remembered) = person.key { changedFrom = TripSharing.fingerprint(remembered) }
        return TripMember(
            username: person.username, role: TripMemberRole(server: person.role),
            fingerprint: person.fingerprint, keyChangedFrom: changedFrom)
    }

    /// Runs `body`, turning a refusal over a changed key into ``TripMembersError/keyChanged`` (the
    /// sheet asks about it instead of naming the CLI's flag).
    private static func keyChangeAsked<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch let refusal as TripSharing.Refusal {
            throw refusal.keyChanged ?? refusal
        }
    }
}
