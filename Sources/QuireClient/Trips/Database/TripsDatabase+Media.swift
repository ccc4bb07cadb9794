import Foundation
import QuireSQLite
import QuireTrips
import QuireWire

// MARK: - Media: the photo upload queue (issue 16)

extension TripsDatabase {
    /// One row of the `media` table (TripsSchema+Media): a photo this device added, with its
    /// sealed files and where each upload stands.
    package struct MediaUpload: Sendable, Equatable {
        /// The two files a photo uploads: the photo, and its thumbnail (when there is one).
        package enum Part: Sendable, Equatable, CaseIterable {
            case thumbnail
            case photo
        }

        package var id: String
        package var trip: TripID
        package var item: ItemID
        /// File names in the device's media folder (the sealed ciphertexts).
        package var localFile: String
        package var thumbnailFile: String?
        /// Ciphertext bytes of each (each upload's `Upload-Length`).
        package var size: Int64
        package var thumbnailSize: Int64?
        package var state: String
        package var confirmedOffset: Int64 = 0
        package var uploadURL: String?
        package var thumbnailOffset: Int64 = 0
        package var thumbnailUploadURL: String?
        /// The photo field's value without its upload ids.
        package var attachment: PhotoAttachment
        package var attempts = 0
        package var lastError: String?

        package init(
            id: String, trip: TripID, item: ItemID, localFile: String, thumbnailFile: String?, size: Int64,
            thumbnailSize: Int64?, attachment: PhotoAttachment, state: String = "queued"
        ) {
            self.id = id
            self.trip = trip
            self.item = item
            self.localFile = localFile
            self.thumbnailFile = thumbnailFile
            self.size = size
            self.thumbnailSize = thumbnailSize
            self.attachment = attachment
            self.state = state
        }

        /// The part's file name, length, upload URL and confirmed offset; nil for a thumbnail the
        /// photo does not have.
        package func file(_ part: Part) -> (name: String, length: Int64, url: String?, offset: Int64)? {
            switch part {
            case .photo: return (localFile, size, uploadURL, confirmedOffset)
            case .thumbnail:
                guard let thumbnailFile, let thumbnailSize else { return nil }
                return (thumbnailFile, thumbnailSize, thumbnailUploadURL, thumbnailOffset)
            }
        }

        /// The columns of the part's upload URL and offset.
        static func columns(_ part: Part) -> (url: String, offset: String) {
            part == .photo ? ("upload_url", "confirmed_offset") : ("thumbnail_upload_url", "thumbnail_offset")
        }

        /// Ciphertext bytes in all, and how many the server has confirmed.
        package var totalBytes: Int64 { size + (thumbnailSize ?? 0) }
        package var confirmedBytes: Int64 { confirmedOffset + thumbnailOffset }
    }

    /// How the waiting uploads stand, for `quire status`: "uploading 3 photos, 41 of 120 MB".
    public struct PhotoUploadSummary: Sendable, Hashable, Codable {
        /// Photos queued, uploading, or uploaded with their attach not yet queued.
        public var photos: Int
        /// Ciphertext bytes the server has confirmed of them, and their total.
        public var uploadedBytes: Int64
        public var totalBytes: Int64
        /// Photos whose upload the server refused (kept until removed).
        public var failed: Int

        public init(photos: Int = 0, uploadedBytes: Int64 = 0, totalBytes: Int64 = 0, failed: Int = 0) {
            self.photos = photos
            self.uploadedBytes = uploadedBytes
            self.totalBytes = totalBytes
            self.failed = failed
        }
    }

    static let mediaSelect = """
        SELECT id, trip_id, item_id, local_file, thumbnail_file, size, thumbnail_size, state, confirmed_offset,
               upload_url, thumbnail_offset, thumbnail_upload_url, attachment, attempts, last_error
        FROM media
        """

    static func mediaUpload(_ row: SQLiteRow) throws -> MediaUpload? {
        guard let trip = TripID(row.text(1)), let item = ItemID(row.text(2)),
            let attachment = PhotoAttachment(fieldValue: row.text(12))
        else { return nil }
        var upload = MediaUpload(
            id: row.text(0), trip: trip, item: item, localFile: row.text(3), thumbnailFile: row.optionalText(4),
            size: row.int64(5), thumbnailSize: row.isNull(6) ? nil : row.int64(6), attachment: attachment,
            state: row.text(7))
        upload.confirmedOffset = row.int64(8)
        upload.uploadURL = row.optionalText(9)
        upload.thumbnailOffset = row.int64(10)
        upload.thumbnailUploadURL = row.optionalText(11)
        upload.attempts = row.int(13)
        upload.lastError = row.optionalText(14)
        return upload
    }

    // MARK: - Queueing

    /// Queues a photo of a live item, its files already sealed in the media folder. One
    /// transaction; nothing is sent until a sync drains the queue.
    /// - Throws: ``TripsDatabaseError`` `.unknownItem`, `.deletedItem`.
    package func queueMedia(_ upload: MediaUpload) throws {
        try write {
            let trip = try requireLiveItem(upload.item)
            try connection.run(
                """
                INSERT INTO media (id, trip_id, item_id, local_file, thumbnail_file, size, thumbnail_size, state,
                                   attachment, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?)
                """, upload.id, trip.description, upload.item.description, upload.localFile, upload.thumbnailFile,
                upload.size, upload.thumbnailSize, upload.attachment.fieldValue, now().timeIntervalSinceReferenceDate)
        }
    }

    /// One media row, whatever its state; nil when there is none.
    package func media(_ id: String) throws -> MediaUpload? {
        try connection.queryFirst(Self.mediaSelect + " WHERE id = ?", id, map: Self.mediaUpload) ?? nil
    }

    /// The photos to upload now, oldest first: queued, uploading or uploaded (the attach still to
    /// queue), of trips the server has (a trip made here goes up first, with the trips' push),
    /// not backing off after a failed try.
    package func mediaToUpload() throws -> [MediaUpload] {
        try connection.query(
            Self.mediaSelect
                + """
                 WHERE state IN ('queued', 'uploading', 'uploaded') AND (retry_at IS NULL OR retry_at <= ?)
                  AND trip_id IN (SELECT id FROM trips WHERE on_server = 1 AND deleted = 0)
                ORDER BY created_at, id
                """, now().timeIntervalSinceReferenceDate, map: Self.mediaUpload
        ).compactMap { $0 }
    }

    // MARK: - Progress

    /// A new upload for `part` was created at `url` (offset 0): kept before any byte is sent, so
    /// a kill after the creation resumes on it rather than making another.
    package func saveUploadURL(_ id: String, _ part: MediaUpload.Part, url: String) throws {
        let columns = MediaUpload.columns(part)
        try write {
            try connection.run(
                "UPDATE media SET \(columns.url) = ?, \(columns.offset) = 0, state = 'uploading' WHERE id = ?", url, id)
        }
    }

    /// The server confirmed `offset` bytes of `part` (a PATCH's answer, or HEAD after a restart);
    /// the photo is `uploaded` once both its files are complete.
    package func saveConfirmedOffset(_ id: String, _ part: MediaUpload.Part, offset: Int64) throws {
        let column = MediaUpload.columns(part).offset
        try write {
            try connection.run("UPDATE media SET \(column) = ? WHERE id = ?", offset, id)
            try connection.run(
                """
                UPDATE media SET state = CASE
                    WHEN confirmed_offset = size AND (thumbnail_size IS NULL OR thumbnail_offset = thumbnail_size)
                    THEN 'uploaded' ELSE 'uploading' END
                WHERE id = ?
                """, id)
        }
    }

    /// A try failed in a way that may pass (no connection, a 5xx, a lost answer): counts it and
    /// holds the photo back as ``ChangeRetry`` says; the upload resumes from its offset.
    package func recordMediaAttempt(_ id: String, error: String) throws {
        try write {
            let attempts =
                try connection.queryFirst("SELECT attempts FROM media WHERE id = ?", id) { $0.int(0) } ?? 0
            let retryAt = now().timeIntervalSinceReferenceDate + ChangeRetry.delay(afterAttempts: attempts + 1)
            try connection.run(
                "UPDATE media SET attempts = ?, retry_at = ?, last_error = ? WHERE id = ?", attempts + 1, retryAt,
                error,
                id)
        }
    }

    /// The server will not take the upload (a viewer, the quota, too large): kept, with the
    /// reason, until the person removes it.
    package func failMedia(_ id: String, reason: String) throws {
        try write {
            try connection.run("UPDATE media SET state = 'failed', last_error = ? WHERE id = ?", reason, id)
        }
    }

    /// Both files are complete on the server: queues the attach op (the photo field with
    /// `attachment`, whose upload ids are filled) and marks the photo attached, in one
    /// transaction, so companions learn of the photo only once it can be downloaded. An item
    /// deleted meanwhile gets no attach; the photo fails with that reason.
    package func attachUploaded(_ id: String, attachment: PhotoAttachment) throws {
        try write {
            guard let upload = try media(id) else { return }
            do {
                _ = try requireLiveItem(upload.item)
            } catch let error as TripsDatabaseError {
                try connection.run(
                    "UPDATE media SET state = 'failed', last_error = ? WHERE id = ?", error.message, id)
                return
            }
            try connection.run(
                "UPDATE media SET state = 'attached', attachment = ?, last_error = NULL WHERE id = ?",
                attachment.fieldValue, id)
            try queuePhotoField(trip: upload.trip, item: upload.item, photo: id, value: attachment.fieldValue)
        }
    }

    /// The photos whose uploads the server still holds for nothing: removed before they were
    /// attached, or attached and then removed (here or by a companion) with the removal taken by
    /// the server. The latter are marked `removed` first, in the same transaction.
    package func mediaToTerminate() throws -> [MediaUpload] {
        try write {
            try connection.run("UPDATE media SET state = 'removed', retry_at = NULL WHERE \(Self.removalConfirmed)")
            return try connection.query(
                Self.mediaSelect + " WHERE state = 'removed' ORDER BY created_at, id", map: Self.mediaUpload
            )
            .compactMap { $0 }
        }
    }

    /// A `media` row (of a photo this device uploaded) whose photo field's confirmed value is null
    /// with nothing waiting to change it: the server took a removal, so no companion is shown the
    /// photo any more and its uploads can go. Until then they stay: a removal the server refuses
    /// leaves the photo shown, and it must still download.
    static let removalConfirmed = """
        (media.state = 'attached'
            AND EXISTS (SELECT 1 FROM fields WHERE fields.trip_id = media.trip_id AND fields.item_id = media.item_id
                AND fields.field = 'photo.' || media.id AND fields.value IS NULL)
            AND NOT EXISTS (SELECT 1 FROM outbox WHERE outbox.trip_id = media.trip_id
                AND outbox.item_id = media.item_id AND outbox.field = 'photo.' || media.id))
        """

    /// Deletes a media row (its uploads were terminated).
    package func forgetMedia(_ id: String) throws {
        try write { try connection.run("DELETE FROM media WHERE id = ?", id) }
    }

    /// The waiting uploads in all, for `quire status`.
    public func photoUploadSummary() throws -> PhotoUploadSummary {
        let waiting = try connection.query(
            Self.mediaSelect + " WHERE state IN ('queued', 'uploading', 'uploaded')", map: Self.mediaUpload
        ).compactMap { $0 }
        let failed = try connection.queryFirst("SELECT COUNT(*) FROM media WHERE state = 'failed'") { $0.int(0) } ?? 0
        return PhotoUploadSummary(
            photos: waiting.count, uploadedBytes: waiting.reduce(0) { $0 + $1.confirmedBytes },
            totalBytes: waiting.reduce(0) { $0 + $1.totalBytes }, failed: failed)
    }
}
