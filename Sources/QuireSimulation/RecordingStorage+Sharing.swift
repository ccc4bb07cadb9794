import Foundation
import QuireServer
import QuireWire

// MARK: - Sharing and key rotation: passed through to the real storage

extension RecordingStorage: TripSharingStorage {
    func setSharingKey(_ key: SharingKeyDTO, account: AccountID, now: Date) async throws {
        try await inner.setSharingKey(key, account: account, now: now)
    }

    func sharingKey(account: AccountID) async throws -> SharingKeyDTO? {
        try await inner.sharingKey(account: account)
    }

    func publicSharingKey(username: String) async throws -> PublicSharingKeyDTO? {
        try await inner.publicSharingKey(username: username)
    }

    func invite(_ request: TripInviteRequestDTO, trip: String, account: AccountID, inviteID: String, now: Date)
        async throws -> TripInviteResult
    {
        try await inner.invite(request, trip: trip, account: account, inviteID: inviteID, now: now)
    }

    func invites(account: AccountID) async throws -> [TripInviteDTO] {
        try await inner.invites(account: account)
    }

    func acceptInvite(_ inviteID: String, account: AccountID, wrappedKey: String, now: Date) async throws
        -> TripJoin?
    {
        try await inner.acceptInvite(inviteID, account: account, wrappedKey: wrappedKey, now: now)
    }

    func declineInvite(_ inviteID: String, account: AccountID) async throws -> Bool {
        try await inner.declineInvite(inviteID, account: account)
    }

    func members(_ trip: String, account: AccountID) async throws -> [TripMemberDTO]? {
        try await inner.members(trip, account: account)
    }

    func setRole(_ role: TripRole, of username: String, trip: String, account: AccountID, now: Date) async throws
        -> TripMembershipResult
    {
        try await inner.setRole(role, of: username, trip: trip, account: account, now: now)
    }

    func wasRemoved(from trip: String, account: AccountID) async throws -> Bool {
        try await inner.wasRemoved(from: trip, account: account)
    }

    func removeMember(_ username: String, trip: String, account: AccountID, now: Date) async throws
        -> TripMembershipResult
    {
        try await inner.removeMember(username, trip: trip, account: account, now: now)
    }
}

extension RecordingStorage: TripKeyStorage {
    func tripKeys(_ trip: String, account: AccountID) async throws -> TripKeysDTO? {
        try await inner.tripKeys(trip, account: account)
    }

    func rotateTripKey(_ request: RotateTripKeyRequestDTO, trip: String, account: AccountID, now: Date)
        async throws -> TripRotationResult
    {
        try await inner.rotateTripKey(request, trip: trip, account: account, now: now)
    }
}
