import QuireWire

/// The refusals of the upload routes (tus 1.0 under a trip).
extension APIError {
    static let uploadsUnavailable = APIError(
        status: 501, code: "not_implemented",
        message: "This server keeps no uploads; start it with --blobs DIR on the SQLite or PostgreSQL store.")

    static let tusVersionUnsupported = APIError(
        status: 412, code: "tus_version_unsupported",
        message: "Send 'Tus-Resumable: \(WireRoutes.tusVersion)': this server speaks tus \(WireRoutes.tusVersion) "
            + "only (see Tus-Version).")

    static let invalidUploadLength = APIError(
        status: 400, code: "invalid_upload_length",
        message: "Send 'Upload-Length' with the upload's whole size in bytes, a whole number from 0; "
            + "this server does not take uploads of unknown length (Upload-Defer-Length).")

    static func uploadTooLarge(_ most: Int64) -> APIError {
        APIError(
            status: 413, code: "upload_too_large",
            message: "An upload may be at most \(most) bytes (Tus-Max-Size); this one is larger.")
    }

    static let invalidUploadMetadata = APIError(
        status: 400, code: "invalid_upload_metadata",
        message: "'Upload-Metadata' must be comma-separated pairs of a key (no spaces or commas, each key "
            + "once) and an optional base64 value, at most 4096 characters in all.")

    static let bodyOnCreation = APIError(
        status: 400, code: "invalid_request",
        message: "Create the upload with an empty body, then send its bytes with PATCH "
            + "(this server does not support creation-with-upload).")

    static let invalidUploadContentType = APIError(
        status: 415, code: "unsupported_media_type",
        message: "A PATCH body must be sent as 'Content-Type: \(WireRoutes.uploadContentType)'.")

    static let invalidUploadOffset = APIError(
        status: 400, code: "invalid_upload_offset",
        message: "Send 'Upload-Offset' with the offset the bytes start at: the one HEAD answers.")

    static func uploadOffsetMismatch(_ current: Int64) -> APIError {
        APIError(
            status: 409, code: "offset_mismatch",
            message: "The upload is at offset \(current) (Upload-Offset), not the one sent; send the bytes "
                + "from there.")
    }

    static func beyondUploadLength(_ length: Int64) -> APIError {
        APIError(
            status: 413, code: "beyond_upload_length",
            message: "These bytes would go past the upload's length (\(length) bytes); nothing was stored.")
    }

    static func chunkTooLarge(_ most: Int) -> APIError {
        APIError(
            status: 413, code: "payload_too_large",
            message: "A PATCH body may be at most \(most) bytes (\(WireRoutes.maxChunkSizeHeader)); send the upload "
                + "in several PATCHes.")
    }

    /// The same answer for an upload that does not exist and one of another account, so neither
    /// is revealed.
    static let uploadNotFound = APIError(
        status: 404, code: "not_found",
        message: "There is no such upload for this account in this trip; create one with "
            + "POST /v1/trips/{id}/uploads.")

    static let uploadExpired = APIError(
        status: 410, code: "upload_expired",
        message: "This upload expired unfinished and will be removed; create a new one and send the file again.")

    static let uploadBusy: APIError = {
        var error = APIError(
            status: 423, code: "upload_locked",
            message: "Another PATCH of this upload is still being stored; wait for it, then ask HEAD for the offset.")
        error.retryAfter = 1
        return error
    }()

    static func uploadQuotaExceeded(_ most: Int64) -> APIError {
        APIError(
            status: 403, code: "quota_exceeded",
            message: "This account's uploads hold their most bytes (\(most / (1024 * 1024)) MiB). Nothing was "
                + "stored: remove photos or unfinished uploads (DELETE) to make room, then upload again.")
    }
}

/// The refusals of the download route (`GET /v1/trips/{id}/uploads/{upload}`).
extension APIError {
    static let invalidRange = APIError(
        status: 400, code: "invalid_range",
        message: "Send 'Range' as one range of bytes: 'bytes=FIRST-LAST', 'bytes=FIRST-' or 'bytes=-COUNT'.")

    static func rangeNotSatisfiable(_ length: Int64) -> APIError {
        APIError(
            status: 416, code: "range_not_satisfiable",
            message: "The upload is \(length) bytes (Content-Range); ask for a range that starts before its end.")
    }

    static func rangeRequired(length: Int64, most: Int64) -> APIError {
        APIError(
            status: 400, code: "range_required",
            message: "This upload is \(length) bytes; download it in parts of at most \(most) bytes with "
                + "'Range: bytes=FIRST-LAST'.")
    }

    static let blobDamaged = APIError(
        status: 500, code: "blob_damaged",
        message: "The server holds fewer bytes of this upload than it confirmed: its blob directory was damaged. "
            + "Ask whoever added the photo to add it again.")
}
