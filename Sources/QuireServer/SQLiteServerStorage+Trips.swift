import Foundation
import QuireSQLite
import QuireWire

/// ``TripStorage`` in the SQLite file: each method is one transaction running the statements
/// ``TripQueries`` writes once for both stores.
extension SQLiteServerStorage: TripStorage {
    public func createTrip(_ trip: String, account: AccountID, wrappedKey: String, quota: TripQuota, now: Date)
        throws -> TripCreation
    {
        let db = try open()
        return try db.transaction {
            try TripQueries.createTrip(trip, account: account, wrappedKey: wrappedKey, quota: quota, now: now, db: db)
        }
    }

    public func applyTripOps(
        _ request: TripOpsRequestDTO, trip: String, account: AccountID, fingerprint: String,
        quota: TripQuota, now: Date, record: @Sendable (TripOpsResponseDTO, TripPosition?) -> Data
    ) throws -> TripOpsResult {
        let db = try open()
        return try db.transaction {
            try TripQueries.applyTripOps(
                request, trip: trip, account: account, fingerprint: fingerprint, quota: quota, now: now,
                record: record, db: db)
        }
    }

    public func tripChanges(
        _ trip: String, account: AccountID, after: TripPosition?, known: [TripPosition], limit: Int
    ) throws -> TripChangesResult {
        let db = try open()
        return try db.transaction {
            try TripQueries.tripChanges(trip, account: account, after: after, known: known, limit: limit, db: db)
        }
    }

    public func tripHistoryHolds(_ trip: String, account: AccountID, positions: [TripPosition]) throws -> Bool? {
        let db = try open()
        return try db.transaction {
            try TripQueries.tripHistoryHolds(trip, account: account, positions: positions, db: db)
        }
    }

    public func tripSnapshot(_ trip: String, account: AccountID) throws -> TripSnapshot? {
        let db = try open()
        return try db.transaction { try TripQueries.tripSnapshot(trip, account: account, db: db) }
    }

    public func tripsFeed(account: AccountID, since: FeedPosition?, limit: Int) throws
        -> TripsFeedResult
    {
        let db = try open()
        return try db.transaction {
            try TripQueries.tripsFeed(account: account, since: since, limit: limit, db: db)
        }
    }

    public func purgeTripTombstones(olderThan cutoff: Date, limit: Int) throws -> TripPurgeBatch {
        let db = try open()
        return try db.transaction { try TripQueries.purgeTripTombstones(olderThan: cutoff, limit: limit, db: db) }
    }
}
