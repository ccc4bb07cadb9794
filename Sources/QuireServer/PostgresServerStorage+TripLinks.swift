import Foundation
import QuirePostgres
import QuireWire

/// ``TripLinkStorage`` in the PostgreSQL store (the statements of ``TripLinkQueries``).
extension PostgresServerStorage: TripLinkStorage {
    public func createLink(
        _ request: CreateTripLinkRequestDTO, trip: String, account: AccountID, linkID: String, now: Date
    ) async throws -> TripLinkResult {
        try await transaction { db in
            try TripLinkQueries.createLink(request, trip: trip, account: account, linkID: linkID, now: now, db: db)
        }
    }

    public func openLink(_ linkID: String, tokenHash: String, now: Date) async throws -> TripLinkDTO? {
        try await transaction { db in try TripLinkQueries.openLink(linkID, tokenHash: tokenHash, now: now, db: db) }
    }

    public func joinByLink(_ linkID: String, tokenHash: String, account: AccountID, wrappedKey: String, now: Date)
        async throws -> TripJoin?
    {
        try await transaction { db in
            let join = try TripLinkQueries.joinByLink(
                linkID, tokenHash: tokenHash, account: account, wrappedKey: wrappedKey, now: now, db: db)
            if let changed = join?.changed, !changed.isEmpty { try self.announce(.trips, changed, db: db) }
            return join
        }
    }

    public func revokeLink(_ linkID: String, trip: String, account: AccountID) async throws -> TripLinkRevocation {
        try await transaction { db in try TripLinkQueries.revokeLink(linkID, trip: trip, account: account, db: db) }
    }
}
