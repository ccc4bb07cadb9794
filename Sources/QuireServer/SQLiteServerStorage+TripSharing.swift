import Foundation
import QuireSQLite
import QuireWire

/// ``TripSharingStorage`` in the SQLite file: each method is one transaction running the
/// statements ``TripSharingQueries`` writes once for both stores.
extension SQLiteServerStorage: TripSharingStorage {
    public func setSharingKey(_ key: SharingKeyDTO, account: AccountID, now: Date) throws {
        try sharingTransaction { try TripSharingQueries.setSharingKey(key, account: account, now: now, db: $0) }
    }

    public func sharingKey(account: AccountID) throws -> SharingKeyDTO? {
        try sharingTransaction { try TripSharingQueries.sharingKey(account: account, db: $0) }
    }

    public func publicSharingKey(username: String) throws -> PublicSharingKeyDTO? {
        try sharingTransaction { try TripSharingQueries.publicSharingKey(username: username, db: $0)?.1 }
    }

    public func invite(
        _ request: TripInviteRequestDTO, trip: String, account: AccountID, inviteID: String, now: Date
    ) throws -> TripInviteResult {
        try sharingTransaction {
            try TripSharingQueries.invite(request, trip: trip, account: account, inviteID: inviteID, now: now, db: $0)
        }
    }

    public func invites(account: AccountID) throws -> [TripInviteDTO] {
        try sharingTransaction { try TripSharingQueries.invites(account: account, db: $0) }
    }

    public func acceptInvite(_ inviteID: String, account: AccountID, wrappedKey: String, now: Date) throws
        -> TripJoin?
    {
        try sharingTransaction {
            try TripSharingQueries.acceptInvite(inviteID, account: account, wrappedKey: wrappedKey, now: now, db: $0)
        }
    }

    public func declineInvite(_ inviteID: String, account: AccountID) throws -> Bool {
        try sharingTransaction { try TripSharingQueries.declineInvite(inviteID, account: account, db: $0) }
    }

    public func members(_ trip: String, account: AccountID) throws -> [TripMemberDTO]? {
        try sharingTransaction { try TripSharingQueries.members(trip, account: account, db: $0) }
    }

    public func setRole(_ role: TripRole, of username: String, trip: String, account: AccountID, now: Date) throws
        -> TripMembershipResult
    {
        try sharingTransaction {
            try TripSharingQueries.setRole(role, of: username, trip: trip, account: account, now: now, db: $0)
        }
    }

    public func wasRemoved(from trip: String, account: AccountID) throws -> Bool {
        try sharingTransaction { try TripSharingQueries.wasRemoved(from: trip, account: account, db: $0) }
    }

    public func removeMember(_ username: String, trip: String, account: AccountID, now: Date) throws
        -> TripMembershipResult
    {
        try sharingTransaction {
            try TripSharingQueries.removeMember(username, trip: trip, account: account, now: now, db: $0)
        }
    }

    /// One transaction on the store's connection.
    func sharingTransaction<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let db = try open()
        return try db.transaction { try body(db) }
    }
}
