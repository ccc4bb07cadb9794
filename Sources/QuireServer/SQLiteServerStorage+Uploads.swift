import Foundation
import QuireSQLite

/// ``UploadStorage`` in the SQLite file: each method is one transaction running the statements
/// ``UploadQueries`` writes once for both stores.
extension SQLiteServerStorage: UploadStorage {
    /// Migration: resumable uploads (issue 16), one row each: whose (`account_id`), which trip,
    /// the declared length, the confirmed offset, `Upload-Metadata` as sent, when it was made and
    /// when it expires (milliseconds; NULL once complete), and whether it is being removed
    /// (`removing`: gone to the routes, its blob deleted before its row). The references do not
    /// cascade: a row goes only with its blob, so deleting an account or a trip must remove
    /// their uploads' blobs first.
    static func storeUploads(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE uploads (
                upload_id TEXT PRIMARY KEY,
                account_id INTEGER NOT NULL REFERENCES accounts(id),
                trip_id TEXT NOT NULL REFERENCES trips(trip_id),
                upload_length INTEGER NOT NULL,
                confirmed_offset INTEGER NOT NULL DEFAULT 0,
                metadata TEXT NOT NULL DEFAULT '',
                created_at INTEGER NOT NULL,
                expires_at INTEGER,
                removing INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID;
            CREATE INDEX uploads_by_account ON uploads (account_id, removing);
            CREATE INDEX uploads_by_expiry ON uploads (expires_at) WHERE expires_at IS NOT NULL;
            CREATE INDEX uploads_being_removed ON uploads (upload_id) WHERE removing = 1;
            """)
    }

    public func createUpload(_ upload: StoredUpload, quotaBytes: Int64) throws -> UploadCreation {
        let db = try open()
        return try db.transaction { try UploadQueries.createUpload(upload, quotaBytes: quotaBytes, db: db) }
    }

    public func upload(_ id: String, trip: String, account: AccountID) throws -> StoredUpload? {
        let db = try open()
        return try db.transaction { try UploadQueries.upload(id, trip: trip, account: account, db: db) }
    }

    public func completedUpload(_ id: String, trip: String, member: AccountID) throws -> StoredUpload? {
        let db = try open()
        return try db.transaction { try UploadQueries.completedUpload(id, trip: trip, member: member, db: db) }
    }

    public func confirmUpload(
        _ id: String, account: AccountID, from: Int64, to: Int64, expiresAt: Date?, now: Date
    ) throws -> UploadConfirmation {
        let db = try open()
        return try db.transaction {
            try UploadQueries.confirmUpload(id, account: account, from: from, to: to, expiresAt: expiresAt, db: db)
        }
    }

    public func beginRemovingUpload(_ id: String, trip: String, account: AccountID) throws -> StoredUpload? {
        let db = try open()
        return try db.transaction { try UploadQueries.beginRemovingUpload(id, trip: trip, account: account, db: db) }
    }

    public func beginRemovingExpiredUploads(before cutoff: Date, limit: Int) throws -> [String] {
        let db = try open()
        return try db.transaction {
            try UploadQueries.beginRemovingExpiredUploads(before: cutoff, limit: limit, db: db)
        }
    }

    public func finishRemovingUploads(_ ids: [String]) throws {
        let db = try open()
        try db.transaction { try UploadQueries.finishRemovingUploads(ids, db: db) }
    }
}
