import Foundation
import QuireWire

/// ``TripKeyStorage`` in the SQLite file: the statements of ``TripKeyQueries``, one transaction each.
extension SQLiteServerStorage: TripKeyStorage {
    public func tripKeys(_ trip: String, account: AccountID) throws -> TripKeysDTO? {
        try sharingTransaction { try TripKeyQueries.tripKeys(trip, account: account, db: $0) }
    }

    public func rotateTripKey(_ request: RotateTripKeyRequestDTO, trip: String, account: AccountID, now: Date)
        throws -> TripRotationResult
    {
        try sharingTransaction {
            try TripKeyQueries.rotateTripKey(request, trip: trip, account: account, now: now, db: $0)
        }
    }
}
