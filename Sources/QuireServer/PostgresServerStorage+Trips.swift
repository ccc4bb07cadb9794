import Foundation
import QuirePostgres
import QuireWire

/// ``TripStorage`` in the PostgreSQL store, with ``SQLiteServerStorage``'s rules exactly: each
/// method is one transaction running the statements ``TripQueries`` writes once for both stores.
///
/// Writes run in `READ COMMITTED` and lock what they decide on (an ops request the trip's row,
/// then its members' account rows before it takes a sequence number), so two instances writing
/// one trip take its revisions one after another, gap-free and unique, and each member's trips
/// feed is commit-ordered like the notes feed. Reads run in `REPEATABLE READ`: one snapshot.
/// A write that changes members' trips feeds announces it before its commit (see
/// `PostgresServerStorage+LiveUpdates.swift`).
extension PostgresServerStorage: TripStorage {
    public func createTrip(_ trip: String, account: AccountID, wrappedKey: String, quota: TripQuota, now: Date)
        async throws -> TripCreation
    {
        try await transaction { db in
            let creation = try TripQueries.createTrip(
                trip, account: account, wrappedKey: wrappedKey, quota: quota, now: now, db: db)
            if case .created = creation { try self.announce(.trips, [account], db: db) }
            return creation
        }
    }

    public func applyTripOps(
        _ request: TripOpsRequestDTO, trip: String, account: AccountID, fingerprint: String,
        quota: TripQuota, now: Date, record: @Sendable (TripOpsResponseDTO, TripPosition?) -> Data
    ) async throws -> TripOpsResult {
        // The pool runs the transaction on another thread and is awaited before this returns,
        // so `record` never outlives the call.
        try await withoutActuallyEscaping(record) { record in
            try await transaction { db in
                let result = try TripQueries.applyTripOps(
                    request, trip: trip, account: account, fingerprint: fingerprint, quota: quota, now: now,
                    record: record, db: db)
                if case .applied(_, let changed) = result { try self.announce(.trips, changed, db: db) }
                return result
            }
        }
    }

    public func tripChanges(
        _ trip: String, account: AccountID, after: TripPosition?, known: [TripPosition], limit: Int
    ) async throws -> TripChangesResult {
        try await transaction(.repeatableRead) { db in
            try TripQueries.tripChanges(trip, account: account, after: after, known: known, limit: limit, db: db)
        }
    }

    public func tripHistoryHolds(_ trip: String, account: AccountID, positions: [TripPosition]) async throws
        -> Bool?
    {
        try await transaction(.repeatableRead) { db in
            try TripQueries.tripHistoryHolds(trip, account: account, positions: positions, db: db)
        }
    }

    public func tripSnapshot(_ trip: String, account: AccountID) async throws -> TripSnapshot? {
        try await transaction(.repeatableRead) { db in
            try TripQueries.tripSnapshot(trip, account: account, db: db)
        }
    }

    public func tripsFeed(account: AccountID, since: FeedPosition?, limit: Int) async throws
        -> TripsFeedResult
    {
        try await transaction(.repeatableRead) { db in
            try TripQueries.tripsFeed(account: account, since: since, limit: limit, db: db)
        }
    }

    public func purgeTripTombstones(olderThan cutoff: Date, limit: Int) async throws -> TripPurgeBatch {
        try await transaction { db in
            try TripQueries.purgeTripTombstones(olderThan: cutoff, limit: limit, db: db)
        }
    }
}
