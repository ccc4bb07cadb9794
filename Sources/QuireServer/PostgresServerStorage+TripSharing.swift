import Foundation
import QuirePostgres
import QuireWire

/// ``TripSharingStorage`` in the PostgreSQL store, with the SQLite store's rules exactly (the
/// statements of ``TripSharingQueries``). A change that moves a member's trips feed announces it.
extension PostgresServerStorage: TripSharingStorage {
    public func setSharingKey(_ key: SharingKeyDTO, account: AccountID, now: Date) async throws {
        try await transaction { db in try TripSharingQueries.setSharingKey(key, account: account, now: now, db: db) }
    }

    public func sharingKey(account: AccountID) async throws -> SharingKeyDTO? {
        try await transaction { db in try TripSharingQueries.sharingKey(account: account, db: db) }
    }

    public func publicSharingKey(username: String) async throws -> PublicSharingKeyDTO? {
        try await transaction { db in try TripSharingQueries.publicSharingKey(username: username, db: db)?.1 }
    }

    public func invite(
        _ request: TripInviteRequestDTO, trip: String, account: AccountID, inviteID: String, now: Date
    ) async throws -> TripInviteResult {
        try await transaction { db in
            try TripSharingQueries.invite(request, trip: trip, account: account, inviteID: inviteID, now: now, db: db)
        }
    }

    public func invites(account: AccountID) async throws -> [TripInviteDTO] {
        try await transaction { db in try TripSharingQueries.invites(account: account, db: db) }
    }

    public func acceptInvite(_ inviteID: String, account: AccountID, wrappedKey: String, now: Date) async throws
        -> TripJoin?
    {
        try await transaction { db in
            let join = try TripSharingQueries.acceptInvite(
                inviteID, account: account, wrappedKey: wrappedKey, now: now, db: db)
            if let changed = join?.changed, !changed.isEmpty { try self.announce(.trips, changed, db: db) }
            return join
        }
    }

    public func declineInvite(_ inviteID: String, account: AccountID) async throws -> Bool {
        try await transaction { db in try TripSharingQueries.declineInvite(inviteID, account: account, db: db) }
    }

    public func members(_ trip: String, account: AccountID) async throws -> [TripMemberDTO]? {
        try await transaction(.repeatableRead) { db in try TripSharingQueries.members(trip, account: account, db: db) }
    }

    public func wasRemoved(from trip: String, account: AccountID) async throws -> Bool {
        try await transaction { db in try TripSharingQueries.wasRemoved(from: trip, account: account, db: db) }
    }

    public func setRole(_ role: TripRole, of username: String, trip: String, account: AccountID, now: Date)
        async throws -> TripMembershipResult
    {
        try await membershipChange { db in
            try TripSharingQueries.setRole(role, of: username, trip: trip, account: account, now: now, db: db)
        }
    }

    public func removeMember(_ username: String, trip: String, account: AccountID, now: Date) async throws
        -> TripMembershipResult
    {
        try await membershipChange { db in
            try TripSharingQueries.removeMember(username, trip: trip, account: account, now: now, db: db)
        }
    }

    private func membershipChange(
        _ body: @escaping @Sendable (PostgresConnection) throws -> TripMembershipResult
    ) async throws -> TripMembershipResult {
        try await transaction { db in
            let result = try body(db)
            if case .changed(let accounts) = result, !accounts.isEmpty { try self.announce(.trips, accounts, db: db) }
            return result
        }
    }
}
