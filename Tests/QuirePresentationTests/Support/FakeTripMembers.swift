import Foundation
import QuireTrips

/// A `TripMembersRepository` over a member list in memory; records each call and can fail them or
/// refuse an invitee whose key changed.
///
/// `@unchecked Sendable`: every stored property is read and written only while holding `lock`.
final class FakeTripMembers: TripMembersRepository, @unchecked Sendable {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "the server can't be reached" }
    }

    let username: String
    private let lock = NSLock()
    private var list: [TripMember]
    private var unsent: Int
    private var made: [String] = []
    private var reads = 0
    private var failing = false
    private var changedKeys: [String: String] = [:]

    init(you: String, _ members: [TripMember], unsent: Int = 0) {
        username = you
        list = members
        self.unsent = unsent
    }

    /// Each call made, in order: "share bob editor", "share bob editor trusting", "link viewer",
    /// "revoke LINK", "role bob viewer", "remove bob", "leave".
    var calls: [String] { lock.withLock { made } }
    var readCount: Int { lock.withLock { reads } }

    func fail(_ value: Bool = true) { lock.withLock { failing = value } }

    /// `username`'s published key is now `fingerprint`, not the one this device saw first.
    func changeKey(of username: String, to fingerprint: String) {
        lock.withLock { changedKeys[username] = fingerprint }
    }

    func members(of trip: TripID) async throws -> [TripMember] {
        try lock.withLock {
            reads += 1
            if failing { throw Refused() }
            return list
        }
    }

    func share(_ trip: TripID, with username: String, role: TripMemberRole, trustingNewKey: Bool) async throws
        -> TripMember
    {
        try lock.withLock {
            if failing { throw Refused() }
            let changed = changedKeys[username]
            if let changed, !trustingNewKey {
                throw TripMembersError.keyChanged(username: username, fingerprint: changed)
            }
            made.append("share \(username) \(role.rawValue)" + (trustingNewKey ? " trusting" : ""))
            let member = TripMember(
                username: username, role: role, fingerprint: changed ?? "NEW0-KEY0-FOR0-\(username)")
            list.append(member)
            return member
        }
    }

    func inviteLink(to trip: TripID, role: TripMemberRole) async throws -> String {
        try lock.withLock {
            if failing { throw Refused() }
            made.append("link \(role.rawValue)")
            return "https://quire.example/join/abc#secret"
        }
    }

    func revokeLink(_ link: String, of trip: TripID) async throws {
        try lock.withLock {
            if failing { throw Refused() }
            made.append("revoke \(link)")
        }
    }

    func setRole(_ role: TripMemberRole, of member: String, in trip: TripID) async throws {
        try lock.withLock {
            if failing { throw Refused() }
            made.append("role \(member) \(role.rawValue)")
            list = list.map {
                $0.username == member ? TripMember(username: member, role: role, fingerprint: $0.fingerprint) : $0
            }
        }
    }

    func remove(_ member: String, from trip: TripID) async throws {
        try lock.withLock {
            if failing { throw Refused() }
            made.append("remove \(member)")
            list.removeAll { $0.username == member }
        }
    }

    func unsentChanges(of trip: TripID) async throws -> Int {
        try lock.withLock {
            if failing { throw Refused() }
            return unsent
        }
    }

    func leave(_ trip: TripID) async throws {
        try lock.withLock {
            if failing { throw Refused() }
            made.append("leave")
        }
    }
}
