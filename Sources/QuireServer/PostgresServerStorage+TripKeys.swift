import Foundation
import QuirePostgres
import QuireWire

/// ``TripKeyStorage`` in the PostgreSQL store, with the SQLite store's rules exactly (the
/// statements of ``TripKeyQueries``). A rotation announces every trips feed it moved.
extension PostgresServerStorage: TripKeyStorage {
    public func tripKeys(_ trip: String, account: AccountID) async throws -> TripKeysDTO? {
        try await transaction(.repeatableRead) { db in try TripKeyQueries.tripKeys(trip, account: account, db: db) }
    }

    public func rotateTripKey(_ request: RotateTripKeyRequestDTO, trip: String, account: AccountID, now: Date)
        async throws -> TripRotationResult
    {
        try await transaction { db in
            let result = try TripKeyQueries.rotateTripKey(request, trip: trip, account: account, now: now, db: db)
            if case .rotated(_, let accounts) = result, !accounts.isEmpty {
                try self.announce(.trips, accounts, db: db)
            }
            return result
        }
    }
}
