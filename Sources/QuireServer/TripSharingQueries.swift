import Foundation
import QuireWire

/// ``TripSharingStorage``'s rules and statements, written once for both stores as
/// ``TripQueries`` is. A membership change locks the trip's row first, then the affected
/// account's row (the order every trip write keeps), and only then takes its sequence number.
enum TripSharingQueries {
    // MARK: - Keys

    static func setSharingKey(_ key: SharingKeyDTO, account: AccountID, now: Date, db: some TripDatabase) throws {
        try db.historyRun(
            """
            INSERT INTO sharing_keys (account_id, public_key, wrapped_private_key, updated_at)
            VALUES ($1, $2, $3, $4)
            ON CONFLICT (account_id) DO UPDATE SET public_key = excluded.public_key,
                wrapped_private_key = excluded.wrapped_private_key, updated_at = excluded.updated_at
            """,
            [.int(account.rawValue), .text(key.publicKey), .text(key.wrappedPrivateKey), .int(now.storedMilliseconds)])
    }

    static func sharingKey(account: AccountID, db: some TripDatabase) throws -> SharingKeyDTO? {
        try db.historyRows(
            "SELECT public_key, wrapped_private_key FROM sharing_keys WHERE account_id = $1", [.int(account.rawValue)]
        ) { SharingKeyDTO(publicKey: try $0.textAt(0), wrappedPrivateKey: try $0.textAt(1)) }.first
    }

    static func publicSharingKey(username: String, db: some TripDatabase) throws -> (AccountID, PublicSharingKeyDTO)? {
        try db.historyRows(
            """
            SELECT a.id, a.username, k.public_key FROM accounts a
            JOIN sharing_keys k ON k.account_id = a.id WHERE a.username = $1
            """, [.text(username)]
        ) {
            (AccountID(try $0.int64At(0)), PublicSharingKeyDTO(username: try $0.textAt(1), publicKey: try $0.textAt(2)))
        }.first
    }

    // MARK: - Invitations

    static func invite(
        _ request: TripInviteRequestDTO, trip: String, account: AccountID, inviteID: String, now: Date,
        db: some TripDatabase
    ) throws -> TripInviteResult {
        guard let role = try TripQueries.tripRole(trip, account: account, db: db) else { return .notMember }
        guard role == .owner else { return .forbidden }
        let epoch = try TripQueries.tripRow(trip, locked: true, db: db)?.keyEpoch ?? TripKeyEpoch.first
        guard (request.keyEpoch ?? TripKeyEpoch.first) == epoch else { return .keyRotated(current: epoch) }
        guard let (invitee, _) = try publicSharingKey(username: request.username, db: db) else { return .noSuchAccount }
        if try TripQueries.tripRole(trip, account: invitee, db: db) != nil { return .alreadyMember }
        try db.historyRun(
            "DELETE FROM trip_invites WHERE trip_id = $1 AND invitee_id = $2", [.text(trip), .int(invitee.rawValue)])
        try db.historyRun(
            """
            INSERT INTO trip_invites
                (invite_id, trip_id, inviter_id, invitee_id, role, sealed_key, created_at, key_epoch)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            """,
            [
                .text(inviteID), .text(trip), .int(account.rawValue), .int(invitee.rawValue), .text(request.role),
                .text(request.sealedKey), .int(now.storedMilliseconds), .int(Int64(epoch)),
            ])
        guard let made = try invites(where: "i.invite_id = $1", [.text(inviteID)], db: db).first else {
            return .noSuchAccount
        }
        return .invited(made)
    }

    static func invites(account: AccountID, db: some TripDatabase) throws -> [TripInviteDTO] {
        try invites(where: "i.invitee_id = $1", [.int(account.rawValue)], db: db)
    }

    private static func invites(where condition: String, _ values: [HistoryValue], db: some TripDatabase) throws
        -> [TripInviteDTO]
    {
        try db.historyRows(
            """
            SELECT i.invite_id, i.trip_id, f.username, COALESCE(k.public_key, ''), t.username, i.role, i.sealed_key,
                i.key_epoch
            FROM trip_invites i
            JOIN accounts f ON f.id = i.inviter_id
            JOIN accounts t ON t.id = i.invitee_id
            LEFT JOIN sharing_keys k ON k.account_id = i.inviter_id
            WHERE \(condition) ORDER BY i.created_at, i.invite_id
            """, values
        ) {
            TripInviteDTO(
                id: try $0.textAt(0), trip: try $0.textAt(1), from: try $0.textAt(2), fromPublicKey: try $0.textAt(3),
                to: try $0.textAt(4), role: try $0.textAt(5), sealedKey: try $0.textAt(6),
                keyEpoch: TripKeyEpoch.shown(Int(try $0.int64At(7))))
        }
    }

    /// Joins only while the inviter is still an owner of the trip: an invitation made by someone
    /// who has since been removed or demoted is void (and deleted).
    static func acceptInvite(
        _ inviteID: String, account: AccountID, wrappedKey: String, now: Date, db: some TripDatabase
    ) throws -> TripJoin? {
        guard
            let (trip, role, inviter, epoch) = try db.historyRows(
                """
                SELECT trip_id, role, inviter_id, key_epoch FROM trip_invites
                WHERE invite_id = $1 AND invitee_id = $2
                """, [.text(inviteID), .int(account.rawValue)]
            ) { (try $0.textAt(0), try $0.textAt(1), AccountID(try $0.int64At(2)), Int(try $0.int64At(3))) }.first
        else { return nil }
        _ = try TripQueries.tripRow(trip, locked: true, db: db)
        try db.historyRun("DELETE FROM trip_invites WHERE invite_id = $1", [.text(inviteID)])
        guard try TripQueries.tripRole(trip, account: inviter, db: db) == .owner else { return nil }
        return try join(trip, account: account, role: role, wrappedKey: wrappedKey, keyEpoch: epoch, now: now, db: db)
    }

    /// Makes `account` a member of `trip` with `role` unless it is one (the trip's row locked
    /// by the caller): an entry in the trip's log, and a departure it had goes. `wrappedKey` is
    /// the key of epoch `keyEpoch`, wrapped with the account's notes key.
    static func join(
        _ trip: String, account: AccountID, role: String, wrappedKey: String, keyEpoch: Int, now: Date,
        db: some TripDatabase
    ) throws -> TripJoin? {
        if let entry = try TripQueries.tripEntry(trip, account: account, db: db) {
            return TripJoin(entry: entry, changed: [])
        }
        let position = try membershipPosition(trip, affected: account, now: now, db: db)
        try db.historyRun(
            "DELETE FROM trip_departures WHERE trip_id = $1 AND account_id = $2", [.text(trip), .int(account.rawValue)])
        try db.historyRun(
            """
            INSERT INTO trip_members (trip_id, account_id, role, wrapped_key, feed_seq, joined_at, key_epoch)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """,
            [
                .text(trip), .int(account.rawValue), .text(role), .text(wrappedKey), .int(position.seq),
                .int(now.storedMilliseconds), .int(Int64(keyEpoch)),
            ])
        let changed = try logMembership(trip, of: account, role: role, at: position, now: now, db: db)
        return try TripQueries.tripEntry(trip, account: account, db: db).map { TripJoin(entry: $0, changed: changed) }
    }

    static func declineInvite(_ inviteID: String, account: AccountID, db: some TripDatabase) throws -> Bool {
        try db.historyRun(
            "DELETE FROM trip_invites WHERE invite_id = $1 AND invitee_id = $2",
            [.text(inviteID), .int(account.rawValue)]) > 0
    }

    // MARK: - Members

    static func members(_ trip: String, account: AccountID, db: some TripDatabase) throws -> [TripMemberDTO]? {
        guard try TripQueries.tripRole(trip, account: account, db: db) != nil else { return nil }
        return try db.historyRows(
            """
            SELECT a.username, m.role, COALESCE(k.public_key, ''), COALESCE(f.seen_revision, f.revision) FROM trip_members m
            JOIN accounts a ON a.id = m.account_id
            LEFT JOIN sharing_keys k ON k.account_id = m.account_id
            LEFT JOIN trip_fields f ON f.trip_id = m.trip_id AND f.item_id = '' AND f.field = CAST($2 AS TEXT) || a.username
            WHERE m.trip_id = $1
            ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 ELSE 2 END, a.username
            """, [.text(trip), .text(WireRoutes.memberFieldPrefix)]
        ) {
            TripMemberDTO(
                username: try $0.textAt(0), role: try $0.textAt(1), publicKey: try $0.textAt(2),
                entryRevision: try $0.optionalInt64At(3).map(Int.init))
        }
    }

    static func setRole(
        _ role: TripRole, of username: String, trip: String, account: AccountID, now: Date, db: some TripDatabase
    ) throws -> TripMembershipResult {
        guard let callerRole = try TripQueries.tripRole(trip, account: account, db: db) else { return .notMember }
        guard callerRole == .owner else { return .forbidden }
        _ = try TripQueries.tripRow(trip, locked: true, db: db)
        guard let (member, current) = try member(username, trip: trip, db: db) else { return .noSuchMember }
        if current == role { return .changed([]) }
        if current == .owner, try ownerCount(trip, db: db) == 1 { return .lastOwner }
        let position = try membershipPosition(trip, affected: member, now: now, db: db)
        try db.historyRun(
            "UPDATE trip_members SET role = $1 WHERE trip_id = $2 AND account_id = $3",
            [.text(role.rawValue), .text(trip), .int(member.rawValue)])
        return .changed(try logMembership(trip, of: member, role: role.rawValue, at: position, now: now, db: db))
    }

    static func removeMember(
        _ username: String, trip: String, account: AccountID, now: Date, db: some TripDatabase
    ) throws -> TripMembershipResult {
        guard let callerRole = try TripQueries.tripRole(trip, account: account, db: db) else { return .notMember }
        _ = try TripQueries.tripRow(trip, locked: true, db: db)
        guard let (member, role) = try member(username, trip: trip, db: db) else {
            return callerRole == .owner ? .noSuchMember : .forbidden
        }
        guard callerRole == .owner || member == account else { return .forbidden }
        if role == .owner, try ownerCount(trip, db: db) == 1 { return .lastOwner }
        let position = try membershipPosition(trip, affected: member, now: now, db: db)
        try db.historyRun(
            "DELETE FROM trip_members WHERE trip_id = $1 AND account_id = $2", [.text(trip), .int(member.rawValue)])
        try db.historyRun(
            """
            INSERT INTO trip_departures (trip_id, account_id, role, feed_seq, left_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (trip_id, account_id) DO UPDATE SET role = excluded.role, feed_seq = excluded.feed_seq,
                left_at = excluded.left_at
            """,
            [
                .text(trip), .int(member.rawValue), .text(role.rawValue), .int(position.seq),
                .int(now.storedMilliseconds),
            ])
        // The member held the trip's key: an owner's device rotates it (their feed entry says so).
        try db.historyRun("UPDATE trips SET rekey_due = true WHERE trip_id = $1", [.text(trip)])
        let others = try logMembership(trip, of: member, role: nil, at: position, now: now, db: db)
        return .changed((others + [member]).sorted { $0.rawValue < $1.rawValue })
    }

    static func wasRemoved(from trip: String, account: AccountID, db: some TripDatabase) throws -> Bool {
        try !db.historyRows(
            "SELECT 1 FROM trip_departures WHERE trip_id = $1 AND account_id = $2",
            [.text(trip), .int(account.rawValue)]
        ) { _ in true }.isEmpty
    }

    // MARK: - Rows

    static func member(_ username: String, trip: String, db: some TripDatabase) throws
        -> (AccountID, TripRole)?
    {
        try db.historyRows(
            """
            SELECT m.account_id, m.role FROM trip_members m JOIN accounts a ON a.id = m.account_id
            WHERE m.trip_id = $1 AND a.username = $2
            """, [.text(trip), .text(username)]
        ) { (AccountID(try $0.int64At(0)), TripRole(rawValue: try $0.textAt(1)) ?? .viewer) }.first
    }

    private static func ownerCount(_ trip: String, db: some TripDatabase) throws -> Int64 {
        try db.historyRows(
            "SELECT COUNT(*) FROM trip_members WHERE trip_id = $1 AND role = 'owner'", [.text(trip)]
        ) { try $0.int64At(0) }.first ?? 0
    }

    /// The next sequence number for a membership change of `trip` (its row locked by the
    /// caller), taken with the rows of its members' accounts and of `affected` locked in id
    /// order, so each of their trips feeds stays commit-ordered.
    private static func membershipPosition(_ trip: String, affected: AccountID, now: Date, db: some TripDatabase)
        throws -> FeedPosition
    {
        try db.lockRows(
            """
            SELECT id FROM accounts
            WHERE id = $2 OR id IN (SELECT account_id FROM trip_members WHERE trip_id = $1) ORDER BY id
            """, [.text(trip), .int(affected.rawValue)])
        return try db.nextFeedPosition(now: now)
    }

    /// Writes the change as the trip's field `member.<username>` at the trip's next revision
    /// under `position` (in plain text: the role, or cleared for a member who left), and moves
    /// every member's trips feed there. The first change of a trip's members also writes those
    /// it already had (its owner), so the log names every member from then on. Returns the
    /// members.
    private static func logMembership(
        _ trip: String, of account: AccountID, role: String?, at position: FeedPosition, now: Date,
        db: some TripDatabase
    ) throws -> [AccountID] {
        var revision = try TripQueries.tripRow(trip, db: db)?.revision ?? 0
        let logged = try db.historyRows(
            "SELECT 1 FROM trip_fields WHERE trip_id = $1 AND item_id = '' AND field LIKE $2 LIMIT 1",
            [.text(trip), .text(WireRoutes.memberFieldPrefix + "%")]
        ) { _ in true }
        var entries: [(AccountID, String?)] = []
        if logged.isEmpty {
            entries = try db.historyRows(
                "SELECT account_id, role FROM trip_members WHERE trip_id = $1 AND account_id <> $2 ORDER BY account_id",
                [.text(trip), .int(account.rawValue)]
            ) { (AccountID(try $0.int64At(0)), Optional(try $0.textAt(1))) }
        }
        entries.append((account, role))
        for (member, memberRole) in entries {
            revision += 1
            try writeMemberEntry(trip, of: member, role: memberRole, revision: revision, at: position, now: now, db: db)
        }
        try db.historyRun(
            "UPDATE trips SET revision = $1, seq = $2 WHERE trip_id = $3",
            [.int(Int64(revision)), .int(position.seq), .text(trip)])
        try db.historyRun(
            "UPDATE trip_members SET feed_seq = $1 WHERE trip_id = $2", [.int(position.seq), .text(trip)])
        return try db.historyRows(
            "SELECT account_id FROM trip_members WHERE trip_id = $1 ORDER BY account_id", [.text(trip)]
        ) { AccountID(try $0.int64At(0)) }
    }

    private static func writeMemberEntry(
        _ trip: String, of account: AccountID, role: String?, revision: Int, at position: FeedPosition, now: Date,
        db: some TripDatabase
    ) throws {
        let username =
            try db.historyRows("SELECT username FROM accounts WHERE id = $1", [.int(account.rawValue)]) {
                try $0.textAt(0)
            }.first ?? ""
        let field = WireRoutes.memberFieldPrefix + username
        // A role change and a departure name the join that started the membership (their
        // `seenRevision`; a join names none), so after a restore a device tells the membership
        // it saw end from a join since, whatever role changes came between.
        let started: Int64? = try db.historyRows(
            """
            SELECT COALESCE(seen_revision, revision) FROM trip_fields
            WHERE trip_id = $1 AND item_id = '' AND field = $2 AND value IS NOT NULL
            """, [.text(trip), .text(field)]
        ) { try $0.int64At(0) }.first
        try db.historyRun(
            """
            INSERT INTO trip_fields (trip_id, item_id, field, value, value_hash, revision, seq, updated_at, seen_revision)
            VALUES ($1, '', $2, $3, NULL, $4, $5, $6, $7)
            ON CONFLICT (trip_id, item_id, field) DO UPDATE SET value = excluded.value, value_hash = NULL,
                revision = excluded.revision, seq = excluded.seq, updated_at = excluded.updated_at,
                seen_revision = excluded.seen_revision, author_id = NULL
            """,
            [
                .text(trip), .text(field), role.map(HistoryValue.text) ?? .null,
                .int(Int64(revision)), .int(position.seq), .int(now.storedMilliseconds),
                started.map(HistoryValue.int) ?? .null,
            ])
    }
}
