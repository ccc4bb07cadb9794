import Foundation
import QuireCrypto
import QuireWire

/// ``TripLinkStorage``'s rules and statements, once for both stores. A join locks the trip's
/// row, then spends a use with a guarded decrement, so two joins racing for the last use of a
/// link on two instances cannot both succeed.
enum TripLinkQueries {
    static let defaultHours = 168
    static let defaultUses = 1

    static func createLink(
        _ request: CreateTripLinkRequestDTO, trip: String, account: AccountID, linkID: String, now: Date,
        db: some TripDatabase
    ) throws -> TripLinkResult {
        guard let role = try TripQueries.tripRole(trip, account: account, db: db) else { return .notMember }
        guard role == .owner else { return .forbidden }
        let epoch = try TripQueries.tripRow(trip, locked: true, db: db)?.keyEpoch ?? TripKeyEpoch.first
        guard (request.keyEpoch ?? TripKeyEpoch.first) == epoch else { return .keyRotated(current: epoch) }
        let expires = now.addingTimeInterval(TimeInterval(request.expiresInHours ?? defaultHours) * 3600)
        try db.historyRun(
            """
            INSERT INTO trip_links
                (link_id, trip_id, creator_id, role, sealed_key, token_hash, expires_at, uses_left, revoked, created_at,
                 key_epoch)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, false, $9, $10)
            """,
            [
                .text(linkID), .text(trip), .int(account.rawValue), .text(request.role), .text(request.sealedKey),
                .text(request.tokenHash), .int(expires.storedMilliseconds),
                .int(Int64(request.maxUses ?? defaultUses)), .int(now.storedMilliseconds), .int(Int64(epoch)),
            ])
        guard let link = try usableLink(linkID, now: now, db: db)?.link else { return .forbidden }
        return .created(link)
    }

    static func openLink(_ linkID: String, tokenHash: String, now: Date, db: some TripDatabase) throws -> TripLinkDTO? {
        guard let (link, stored) = try usableLink(linkID, now: now, db: db),
            ConstantTime.equals(Data(stored.utf8), Data(tokenHash.utf8))
        else { return nil }
        return link
    }

    static func joinByLink(
        _ linkID: String, tokenHash: String, account: AccountID, wrappedKey: String, now: Date, db: some TripDatabase
    ) throws -> TripJoin? {
        guard let link = try openLink(linkID, tokenHash: tokenHash, now: now, db: db) else { return nil }
        _ = try TripQueries.tripRow(link.trip, locked: true, db: db)
        if let entry = try TripQueries.tripEntry(link.trip, account: account, db: db) {
            return TripJoin(entry: entry, changed: [])
        }
        let spent = try db.historyRun(
            "UPDATE trip_links SET uses_left = uses_left - 1 WHERE link_id = $1 AND uses_left > 0", [.text(linkID)])
        guard spent == 1 else { return nil }
        return try TripSharingQueries.join(
            link.trip, account: account, role: link.role, wrappedKey: wrappedKey,
            keyEpoch: link.keyEpoch ?? TripKeyEpoch.first, now: now, db: db)
    }

    static func revokeLink(_ linkID: String, trip: String, account: AccountID, db: some TripDatabase) throws
        -> TripLinkRevocation
    {
        guard let role = try TripQueries.tripRole(trip, account: account, db: db) else { return .notMember }
        guard role == .owner else { return .forbidden }
        let revoked = try db.historyRun(
            "UPDATE trip_links SET revoked = true WHERE link_id = $1 AND trip_id = $2", [.text(linkID), .text(trip)])
        return revoked == 1 ? .revoked : .noSuchLink
    }

    /// The link and its token hash while it can be used: not revoked, not expired, uses left,
    /// and made by someone who is still an owner of its trip.
    private static func usableLink(_ linkID: String, now: Date, db: some TripDatabase) throws
        -> (link: TripLinkDTO, tokenHash: String)?
    {
        guard
            let (link, creator, tokenHash) = try db.historyRows(
                """
                SELECT l.link_id, l.trip_id, l.role, a.username, l.sealed_key, l.expires_at, l.uses_left, l.creator_id,
                    l.token_hash, l.key_epoch
                FROM trip_links l JOIN accounts a ON a.id = l.creator_id
                WHERE l.link_id = $1 AND l.revoked = false AND l.expires_at > $2 AND l.uses_left > 0
                """, [.text(linkID), .int(now.storedMilliseconds)]
            ) { row in
                (
                    TripLinkDTO(
                        id: try row.textAt(0), trip: try row.textAt(1), role: try row.textAt(2),
                        from: try row.textAt(3),
                        sealedKey: try row.textAt(4), expiresAt: Date(storedMilliseconds: try row.int64At(5)),
                        usesLeft: Int(try row.int64At(6)), keyEpoch: TripKeyEpoch.shown(Int(try row.int64At(9)))),
                    AccountID(try row.int64At(7)), try row.textAt(8)
                )
            }.first
        else { return nil }
        guard try TripQueries.tripRole(link.trip, account: creator, db: db) == .owner else { return nil }
        return (link, tokenHash)
    }
}
