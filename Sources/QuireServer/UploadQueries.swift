import Foundation

/// The uploads' statements, written once for both stores (as ``TripQueries`` is): each
/// ``UploadStorage`` method of `SQLiteServerStorage` and `PostgresServerStorage` is one of these
/// inside the store's own transaction.
///
/// A creation locks the account's row before it sums the account's uploads, so two instances
/// creating uploads for one account at once cannot both pass the quota (a no-op on SQLite, whose
/// one connection runs one transaction at a time). A confirmation is one conditional `UPDATE`:
/// of two PATCHes checked against the same offset, only one moves it.
enum UploadQueries {
    static let columns =
        "upload_id, account_id, trip_id, upload_length, confirmed_offset, metadata, created_at, expires_at"

    static func createUpload(_ upload: StoredUpload, quotaBytes: Int64, db: some TripDatabase) throws
        -> UploadCreation
    {
        guard let role = try TripQueries.tripRole(upload.trip, account: upload.account, db: db) else {
            return .notMember
        }
        guard role.canEdit else { return .readOnly }
        try db.lockRows("SELECT id FROM accounts WHERE id = $1", [.int(upload.account.rawValue)])
        let held =
            try db.historyRows(
                """
                SELECT CAST(COALESCE(SUM(upload_length), 0) AS BIGINT) FROM uploads
                WHERE account_id = $1 AND removing = FALSE
                """, [.int(upload.account.rawValue)]
            ) { try $0.int64At(0) }.first ?? 0
        guard upload.length <= quotaBytes - held else { return .quotaExceeded(limit: quotaBytes) }
        try db.historyRun(
            """
            INSERT INTO uploads (\(columns), removing)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, FALSE)
            """,
            [
                .text(upload.id), .int(upload.account.rawValue), .text(upload.trip), .int(upload.length),
                .int(upload.offset), .text(upload.metadata), .int(upload.createdAt.storedMilliseconds),
                upload.expiresAt.map { .int($0.storedMilliseconds) } ?? .null,
            ])
        return .created
    }

    static func upload(_ id: String, trip: String, account: AccountID, db: some TripDatabase) throws
        -> StoredUpload?
    {
        try db.historyRows(
            """
            SELECT u.upload_id, u.account_id, u.trip_id, u.upload_length, u.confirmed_offset, u.metadata,
                u.created_at, u.expires_at
            FROM uploads u JOIN trip_members m ON m.trip_id = u.trip_id AND m.account_id = u.account_id
            WHERE u.upload_id = $1 AND u.trip_id = $2 AND u.account_id = $3 AND u.removing = FALSE
            """, [.text(id), .text(trip), .int(account.rawValue)], map: storedUpload
        ).first
    }

    static func completedUpload(_ id: String, trip: String, member: AccountID, db: some TripDatabase) throws
        -> StoredUpload?
    {
        try db.historyRows(
            """
            SELECT u.upload_id, u.account_id, u.trip_id, u.upload_length, u.confirmed_offset, u.metadata,
                u.created_at, u.expires_at
            FROM uploads u JOIN trip_members m ON m.trip_id = u.trip_id AND m.account_id = $3
            WHERE u.upload_id = $1 AND u.trip_id = $2 AND u.removing = FALSE
              AND u.confirmed_offset = u.upload_length
            """, [.text(id), .text(trip), .int(member.rawValue)], map: storedUpload
        ).first
    }

    static func confirmUpload(
        _ id: String, account: AccountID, from: Int64, to: Int64, expiresAt: Date?, db: some TripDatabase
    ) throws -> UploadConfirmation {
        let moved = try db.historyRun(
            """
            UPDATE uploads SET confirmed_offset = $1, expires_at = $2
            WHERE upload_id = $3 AND account_id = $4 AND confirmed_offset = $5 AND removing = FALSE
            """,
            [
                .int(to), expiresAt.map { .int($0.storedMilliseconds) } ?? .null, .text(id), .int(account.rawValue),
                .int(from),
            ])
        if moved == 1 { return .confirmed }
        let current = try db.historyRows(
            "SELECT confirmed_offset FROM uploads WHERE upload_id = $1 AND account_id = $2 AND removing = FALSE",
            [.text(id), .int(account.rawValue)]
        ) { try $0.int64At(0) }.first
        return current.map { .offsetMoved(current: $0) } ?? .gone
    }

    static func beginRemovingUpload(_ id: String, trip: String, account: AccountID, db: some TripDatabase) throws
        -> StoredUpload?
    {
        guard let upload = try upload(id, trip: trip, account: account, db: db) else { return nil }
        let marked = try db.historyRun(
            "UPDATE uploads SET removing = TRUE WHERE upload_id = $1 AND removing = FALSE", [.text(id)])
        return marked == 1 ? upload : nil
    }

    static func beginRemovingExpiredUploads(before cutoff: Date, limit: Int, db: some TripDatabase) throws
        -> [String]
    {
        let cutoff = HistoryValue.int(cutoff.storedMilliseconds)
        // The outer condition again, so a PATCH that moved the expiry meanwhile (PostgreSQL
        // re-reads a row a concurrent transaction changed) keeps its upload.
        try db.historyRun(
            """
            UPDATE uploads SET removing = TRUE
            WHERE removing = FALSE AND expires_at IS NOT NULL AND expires_at < $1 AND upload_id IN (
                SELECT upload_id FROM uploads
                WHERE removing = FALSE AND expires_at IS NOT NULL AND expires_at < $1
                ORDER BY expires_at LIMIT $2)
            """, [cutoff, .int(Int64(limit))])
        return try db.historyRows(
            "SELECT upload_id FROM uploads WHERE removing = TRUE ORDER BY upload_id LIMIT $1", [.int(Int64(limit))]
        ) { try $0.textAt(0) }
    }

    static func finishRemovingUploads(_ ids: [String], db: some TripDatabase) throws {
        for id in ids {
            try db.historyRun("DELETE FROM uploads WHERE upload_id = $1 AND removing = TRUE", [.text(id)])
        }
    }

    /// A row selecting ``columns``.
    static func storedUpload(_ row: any HistoryRow) throws -> StoredUpload {
        StoredUpload(
            id: try row.textAt(0), account: AccountID(try row.int64At(1)), trip: try row.textAt(2),
            length: try row.int64At(3), offset: try row.int64At(4), metadata: try row.textAt(5),
            createdAt: Date(storedMilliseconds: try row.int64At(6)),
            expiresAt: try row.optionalInt64At(7).map(Date.init(storedMilliseconds:)))
    }
}
