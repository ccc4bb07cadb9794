import Foundation
import QuireWire

/// ``TripKeyStorage``'s rules and statements, once for both stores. A rotation locks the trip's
/// row first, checks everything, and only then changes anything, so a refused rotation leaves the
/// trip as it was; its removals and its feed move take the members' account rows in id order,
/// as every trip write does.
enum TripKeyQueries {
    static func tripKeys(_ trip: String, account: AccountID, db: some TripDatabase) throws -> TripKeysDTO? {
        guard let role = try TripQueries.tripRole(trip, account: account, db: db),
            let row = try TripQueries.tripRow(trip, db: db),
            let members = try TripSharingQueries.members(trip, account: account, db: db)
        else { return nil }
        let chain = try db.historyRows(
            "SELECT epoch, previous_key FROM trip_key_chain WHERE trip_id = $1 ORDER BY epoch", [.text(trip)]
        ) { TripKeyLinkDTO(epoch: Int(try $0.int64At(0)), previousKey: try $0.textAt(1)) }
        return TripKeysDTO(
            epoch: row.keyEpoch, chain: chain, members: members,
            invites: role == .owner ? try pendingInvites(trip, db: db) : [], rekeyDue: row.rekeyDue)
    }

    static func rotateTripKey(
        _ request: RotateTripKeyRequestDTO, trip: String, account: AccountID, now: Date, db: some TripDatabase
    ) throws -> TripRotationResult {
        guard let role = try TripQueries.tripRole(trip, account: account, db: db) else { return .notMember }
        guard role == .owner else { return .forbidden }
        guard let row = try TripQueries.tripRow(trip, locked: true, db: db) else { return .notMember }
        guard request.epoch == row.keyEpoch + 1 else { return .keyRotated(current: row.keyEpoch) }
        let remove = request.remove ?? []
        var removing: [AccountID] = []
        for username in remove {
            guard let (member, _) = try TripSharingQueries.member(username, trip: trip, db: db), member != account
            else { return .noSuchMember }
            removing.append(member)
        }
        let staying = try db.historyRows(
            "SELECT a.username FROM trip_members m JOIN accounts a ON a.id = m.account_id WHERE m.trip_id = $1",
            [.text(trip)]
        ) { try $0.textAt(0) }.filter { !remove.contains($0) }
        let invites = try pendingInvites(trip, db: db)
        guard Set(staying) == Set(request.members.map(\.username)), staying.count == request.members.count,
            Set(invites.map(\.invite)) == Set(request.invites.compactMap(\.invite)),
            invites.count == request.invites.count,
            request.invites.allSatisfy({ given in
                invites.contains { $0.invite == given.invite && $0.username == given.username }
            })
        else { return .membersChanged }

        var changed: Set<AccountID> = []
        for username in remove {
            if case .changed(let accounts) = try TripSharingQueries.removeMember(
                username, trip: trip, account: account, now: now, db: db)
            {
                changed.formUnion(accounts)
            }
        }
        try db.historyRun(
            """
            INSERT INTO trip_key_chain (trip_id, epoch, previous_key, created_at, key_check)
            VALUES ($1, $2, $3, $4, $5)
            """,
            [
                .text(trip), .int(Int64(request.epoch)), .text(request.previousKey), .int(now.storedMilliseconds),
                request.keyCheck.map { .text($0) } ?? .null,
            ])
        try db.historyRun(
            "UPDATE trips SET key_epoch = $1, rekey_due = false WHERE trip_id = $2",
            [.int(Int64(request.epoch)), .text(trip)])
        for member in request.members {
            try db.historyRun(
                """
                UPDATE trip_members SET wrapped_key = $1, key_epoch = $2, key_sealed = true
                WHERE trip_id = $3 AND account_id = (SELECT id FROM accounts WHERE username = $4)
                """, [.text(member.sealedKey), .int(Int64(request.epoch)), .text(trip), .text(member.username)])
        }
        for invite in request.invites {
            try db.historyRun(
                "UPDATE trip_invites SET sealed_key = $1, key_epoch = $2 WHERE invite_id = $3 AND trip_id = $4",
                [.text(invite.sealedKey), .int(Int64(request.epoch)), .text(invite.invite ?? ""), .text(trip)])
        }
        // Their sealed key is the old one, and whoever saw a link (the member just removed, say)
        // could join with it.
        try db.historyRun("UPDATE trip_links SET revoked = true WHERE trip_id = $1", [.text(trip)])
        changed.formUnion(try moveMembersFeeds(trip, now: now, db: db))
        return .rotated(epoch: request.epoch, changed: changed.sorted { $0.rawValue < $1.rawValue })
    }

    /// The trip's pending invitations, with each invitee's public key.
    private static func pendingInvites(_ trip: String, db: some TripDatabase) throws -> [TripKeyInviteeDTO] {
        try db.historyRows(
            """
            SELECT i.invite_id, a.username, COALESCE(k.public_key, '') FROM trip_invites i
            JOIN accounts a ON a.id = i.invitee_id
            LEFT JOIN sharing_keys k ON k.account_id = i.invitee_id
            WHERE i.trip_id = $1 ORDER BY i.created_at, i.invite_id
            """, [.text(trip)]
        ) { TripKeyInviteeDTO(invite: try $0.textAt(0), username: try $0.textAt(1), publicKey: try $0.textAt(2)) }
    }

    /// Moves every member's trips feed to a new sequence number (their accounts locked in id
    /// order), so each of their devices sees the trip's entry with its new key. Returns them.
    private static func moveMembersFeeds(_ trip: String, now: Date, db: some TripDatabase) throws -> [AccountID] {
        try db.lockRows(
            "SELECT id FROM accounts WHERE id IN (SELECT account_id FROM trip_members WHERE trip_id = $1) ORDER BY id",
            [.text(trip)])
        let position = try db.nextFeedPosition(now: now)
        try db.historyRun(
            "UPDATE trip_members SET feed_seq = $1 WHERE trip_id = $2", [.int(position.seq), .text(trip)])
        return try db.historyRows(
            "SELECT account_id FROM trip_members WHERE trip_id = $1 ORDER BY account_id", [.text(trip)]
        ) { AccountID(try $0.int64At(0)) }
    }
}
