import Foundation
import QuirePostgres

/// ``UploadStorage`` in the PostgreSQL store, with ``SQLiteServerStorage``'s rules exactly: each
/// method is one transaction running the statements ``UploadQueries`` writes once for both
/// stores. A creation locks its account's row before it checks the quota, so instances creating
/// one account's uploads at once take turns; a confirmation is one conditional `UPDATE`.
extension PostgresServerStorage: UploadStorage {
    /// Migration: resumable uploads, as the SQLite store's `storeUploads` (see there for each
    /// column).
    static func storeUploads(_ db: PostgresConnection) throws {
        try db.execute(
            """
            CREATE TABLE uploads (
                upload_id text PRIMARY KEY,
                account_id bigint NOT NULL REFERENCES accounts (id),
                trip_id text NOT NULL REFERENCES trips (trip_id),
                upload_length bigint NOT NULL,
                confirmed_offset bigint NOT NULL DEFAULT 0,
                metadata text NOT NULL DEFAULT '',
                created_at bigint NOT NULL,
                expires_at bigint,
                removing boolean NOT NULL DEFAULT false
            );
            CREATE INDEX uploads_by_account ON uploads (account_id, removing);
            CREATE INDEX uploads_by_expiry ON uploads (expires_at) WHERE expires_at IS NOT NULL;
            CREATE INDEX uploads_being_removed ON uploads (upload_id) WHERE removing;
            """)
    }

    public func createUpload(_ upload: StoredUpload, quotaBytes: Int64) async throws -> UploadCreation {
        try await transaction { db in try UploadQueries.createUpload(upload, quotaBytes: quotaBytes, db: db) }
    }

    public func upload(_ id: String, trip: String, account: AccountID) async throws -> StoredUpload? {
        try await transaction { db in try UploadQueries.upload(id, trip: trip, account: account, db: db) }
    }

    public func completedUpload(_ id: String, trip: String, member: AccountID) async throws -> StoredUpload? {
        try await transaction { db in try UploadQueries.completedUpload(id, trip: trip, member: member, db: db) }
    }

    public func confirmUpload(
        _ id: String, account: AccountID, from: Int64, to: Int64, expiresAt: Date?, now: Date
    ) async throws -> UploadConfirmation {
        try await transaction { db in
            try UploadQueries.confirmUpload(id, account: account, from: from, to: to, expiresAt: expiresAt, db: db)
        }
    }

    public func beginRemovingUpload(_ id: String, trip: String, account: AccountID) async throws -> StoredUpload? {
        try await transaction { db in
            try UploadQueries.beginRemovingUpload(id, trip: trip, account: account, db: db)
        }
    }

    public func beginRemovingExpiredUploads(before cutoff: Date, limit: Int) async throws -> [String] {
        try await transaction { db in
            try UploadQueries.beginRemovingExpiredUploads(before: cutoff, limit: limit, db: db)
        }
    }

    public func finishRemovingUploads(_ ids: [String]) async throws {
        try await transaction { db in try UploadQueries.finishRemovingUploads(ids, db: db) }
    }
}
