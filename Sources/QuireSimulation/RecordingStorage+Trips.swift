import Foundation
import QuireServer
import QuireWire

// MARK: - TripStorage: the trips, witnessed

extension RecordingStorage: TripStorage {
    /// The trip ops requests the server decided, by op id: the "at most once" check reads it.
    var tripRequests: [String] { lock.withLock { appliedTripRequests } }

    /// What "no op from a member without the right role is ever applied" found broken.
    var roleViolations: [String] { lock.withLock { recordedRoleViolations } }

    func createTrip(_ trip: String, account: AccountID, wrappedKey: String, quota: TripQuota, now: Date)
        async throws -> TripCreation
    {
        try await inner.createTrip(trip, account: account, wrappedKey: wrappedKey, quota: quota, now: now)
    }

    func applyTripOps(
        _ request: TripOpsRequestDTO, trip: String, account: AccountID, fingerprint: String, quota: TripQuota,
        now: Date, record: @Sendable (TripOpsResponseDTO, TripPosition?) -> Data
    ) async throws -> TripOpsResult {
        // One task drives the simulation: nothing changes the role between this read and the write.
        let role = try await inner.tripSnapshot(trip, account: account)?.entry.role
        let sabotaged = role == "viewer" ? viewerWhoMayEdit : nil
        if let sabotaged, let owner = self.account {
            _ = try await inner.setRole(.editor, of: sabotaged, trip: trip, account: owner, now: now)
        }
        let result = try await inner.applyTripOps(
            request, trip: trip, account: account, fingerprint: fingerprint, quota: quota, now: now, record: record)
        if let sabotaged, let owner = self.account {
            _ = try await inner.setRole(.viewer, of: sabotaged, trip: trip, account: owner, now: now)
        }
        if case .applied(_, let changed) = result,
            let violation = MembershipChecks.roleViolation(
                opID: request.opId, trip: trip, account: "\(account.rawValue)", role: role, changed: changed.count)
        {
            lock.withLock { recordedRoleViolations.append(violation) }
        }
        // Decided and written: a resend after the purge forgot its op id finds its values
        // already stored (or a conflict) and writes nothing, which is no second application.
        if case .applied(_, let changed) = result, !changed.isEmpty {
            lock.withLock { appliedTripRequests.append(request.opId) }
        }
        return result
    }

    func tripChanges(
        _ trip: String, account: AccountID, after: TripPosition?, known: [TripPosition], limit: Int
    ) async throws -> TripChangesResult {
        try await inner.tripChanges(trip, account: account, after: after, known: known, limit: limit)
    }

    func tripHistoryHolds(_ trip: String, account: AccountID, positions: [TripPosition]) async throws -> Bool? {
        try await inner.tripHistoryHolds(trip, account: account, positions: positions)
    }

    func tripSnapshot(_ trip: String, account: AccountID) async throws -> TripSnapshot? {
        try await inner.tripSnapshot(trip, account: account)
    }

    func tripsFeed(account: AccountID, since: FeedPosition?, limit: Int) async throws -> TripsFeedResult {
        try await inner.tripsFeed(account: account, since: since, limit: limit)
    }

    func purgeTripTombstones(olderThan cutoff: Date, limit: Int) async throws -> TripPurgeBatch {
        try await inner.purgeTripTombstones(olderThan: cutoff, limit: limit)
    }
}
