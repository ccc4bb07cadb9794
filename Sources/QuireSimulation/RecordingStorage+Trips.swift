import Foundation
import QuireServer
import QuireWire

// MARK: - TripStorage: the trips, witnessed

extension RecordingStorage: TripStorage {
    /// The trip ops requests the server decided, by op id: the "at most once" check reads it.
    var tripRequests: [String] { lock.withLock { appliedTripRequests } }

    func createTrip(_ trip: String, account: AccountID, wrappedKey: String, now: Date) async throws
        -> TripCreation
    {
        try await inner.createTrip(trip, account: account, wrappedKey: wrappedKey, now: now)
    }

    func applyTripOps(
        _ request: TripOpsRequestDTO, trip: String, account: AccountID, fingerprint: String, now: Date,
        record: @Sendable (TripOpsResponseDTO, TripPosition?) -> Data
    ) async throws -> TripOpsResult {
        let result = try await inner.applyTripOps(
            request, trip: trip, account: account, fingerprint: fingerprint, now: now, record: record)
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
