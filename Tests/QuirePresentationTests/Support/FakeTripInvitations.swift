import Foundation
import QuireTrips

/// A `TripInvitationsRepository` over invitations in memory; records each call and can fail them.
///
/// `@unchecked Sendable`: every stored property is read and written only while holding `lock`.
final class FakeTripInvitations: TripInvitationsRepository, @unchecked Sendable {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "the server can't be reached" }
    }

    static let link = "https://quire.example/join/abc#secret"
    static let linkedTrip = TripID()

    private let lock = NSLock()
    private var list: [TripInvitation]
    private var made: [String] = []
    private var reads = 0
    private var failing = false

    init(_ invitations: [TripInvitation]) {
        list = invitations
    }

    /// Each call made, in order: "accept ID", "decline ID", "join LINK".
    var calls: [String] { lock.withLock { made } }
    var readCount: Int { lock.withLock { reads } }

    func fail(_ value: Bool = true) { lock.withLock { failing = value } }

    func invitations() async throws -> [TripInvitation] {
        try lock.withLock {
            reads += 1
            if failing { throw Refused() }
            return list
        }
    }

    func accept(_ invitation: String) async throws -> TripJoin {
        try lock.withLock {
            if failing { throw Refused() }
            made.append("accept \(invitation)")
            guard let found = list.first(where: { $0.id == invitation }) else { throw Refused() }
            list.removeAll { $0.id == invitation }
            return TripJoin(trip: found.trip, role: .editor)
        }
    }

    func decline(_ invitation: String) async throws {
        try lock.withLock {
            if failing { throw Refused() }
            made.append("decline \(invitation)")
            list.removeAll { $0.id == invitation }
        }
    }

    /// Only ``link`` is a link.
    func join(link text: String) async throws -> TripJoin {
        try lock.withLock {
            if failing { throw Refused() }
            guard text == Self.link else { throw TripMembersError.notALink }
            made.append("join \(text)")
            return TripJoin(trip: Self.linkedTrip, role: .viewer)
        }
    }
}
