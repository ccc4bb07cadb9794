import Foundation
import QuireWire

/// ``TripLinkStorage`` in the SQLite file (the statements of ``TripLinkQueries``).
extension SQLiteServerStorage: TripLinkStorage {
    public func createLink(
        _ request: CreateTripLinkRequestDTO, trip: String, account: AccountID, linkID: String, now: Date
    ) throws -> TripLinkResult {
        try sharingTransaction {
            try TripLinkQueries.createLink(request, trip: trip, account: account, linkID: linkID, now: now, db: $0)
        }
    }

    public func openLink(_ linkID: String, tokenHash: String, now: Date) throws -> TripLinkDTO? {
        try sharingTransaction { try TripLinkQueries.openLink(linkID, tokenHash: tokenHash, now: now, db: $0) }
    }

    public func joinByLink(_ linkID: String, tokenHash: String, account: AccountID, wrappedKey: String, now: Date)
        throws -> TripJoin?
    {
        try sharingTransaction {
            try TripLinkQueries.joinByLink(
                linkID, tokenHash: tokenHash, account: account, wrappedKey: wrappedKey, now: now, db: $0)
        }
    }

    public func revokeLink(_ linkID: String, trip: String, account: AccountID) throws -> TripLinkRevocation {
        try sharingTransaction { try TripLinkQueries.revokeLink(linkID, trip: trip, account: account, db: $0) }
    }
}
