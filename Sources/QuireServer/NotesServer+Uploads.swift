import Foundation
import QuireCrypto
import QuireWire

/// The upload routes of API v1 (issue 16): tus 1.0, the core protocol with the creation,
/// expiration and termination extensions, under a trip:
///
/// - `OPTIONS /v1/trips/{id}/uploads[/{upload}]`: the version, extensions and limits; no auth.
/// - `POST /v1/trips/{id}/uploads`: a new upload of `Upload-Length` bytes (an editor of the trip
///   only), answered 201 with `Location` and `Upload-Expires`.
/// - `HEAD …/uploads/{upload}`: `Upload-Offset` (the confirmed offset) and `Upload-Length`.
/// - `PATCH …/uploads/{upload}`: bytes at `Upload-Offset`, which must be the confirmed offset
///   (else 409); answered with the new offset only after the bytes are durable in the blob store
///   and the offset is committed in the database.
/// - `DELETE …/uploads/{upload}`: terminates the upload (finished or not) and removes its bytes.
/// - `GET …/uploads/{upload}`: a finished upload's bytes, with `Range`, for any member of the
///   trip (`NotesServer+Downloads.swift`).
///
/// Same bearer auth and JSON errors as every route, each answer with `Tus-Resumable`; an upload
/// of another account, or in another trip, is 404 like one that does not exist. A PATCH body is
/// held in memory until it is whole, as every body is, but may be up to
/// ``UploadSettings/maxChunkBytes`` instead of the 4 MiB of other routes (the host reads that
/// limit from ``bodyLimit(method:path:)``); a larger file goes in several PATCHes.
extension NotesServer {
    /// The trip and upload id of a path under `/v1/trips/{id}/uploads`, or nil for another path.
    static func uploadPath(_ path: String) -> (trip: String, upload: String?)? {
        guard path.hasPrefix(WireRoutes.tripsPrefix) else { return nil }
        let parts = path.dropFirst(WireRoutes.tripsPrefix.count).split(
            separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts[1] == "uploads" else { return nil }
        return (String(parts[0]), parts.count == 3 ? String(parts[2]) : nil)
    }

    /// How much body a host reads of a request with `method` on `path`, read before its body:
    /// ``UploadSettings/maxChunkBytes`` for a PATCH of an upload, arriving at least at
    /// ``UploadSettings/slowestChunkRate``; else `WireRoutes.maxBodyBytes` within the deadline.
    func bodyLimit(method: String, path: String) -> BodyLimit {
        if method == "PATCH", Self.uploadPath(path)?.upload != nil {
            let settings = configuration.uploads
            return BodyLimit(
                bytes: settings.maxChunkBytes, refusal: .chunkTooLarge(settings.maxChunkBytes),
                slowestRate: settings.slowestChunkRate)
        }
        return BodyLimit(bytes: WireRoutes.maxBodyBytes, refusal: .payloadTooLarge, slowestRate: nil)
    }

    /// Answers the upload paths, or returns nil for any other path.
    func uploadsRoute(_ request: HTTPRequest) async throws -> HTTPResponse? {
        guard let (trip, upload) = Self.uploadPath(request.path) else { return nil }
        var response: HTTPResponse
        do {
            response = try await answerUpload(request, trip: trip, upload: upload)
        } catch let refusal as UploadRefusal {
            response = .error(refusal.error)
            response.headers.merge(refusal.headers) { $1 }
        } catch let error as APIError {
            response = .error(error)
            if error == .tusVersionUnsupported { response.headers["Tus-Version"] = WireRoutes.tusVersion }
        }
        response.headers["Tus-Resumable"] = WireRoutes.tusVersion
        return response
    }

    private func answerUpload(_ request: HTTPRequest, trip: String, upload: String?) async throws -> HTTPResponse {
        try allow(request, upload == nil ? ["POST", "OPTIONS"] : ["GET", "HEAD", "PATCH", "DELETE", "OPTIONS"])
        // Ids first (400 for a malformed trip id, 404 for a malformed upload id), then the token,
        // then tus's own header: a request without a token is 401 whatever else it lacks.
        let tripID = try RequestValidation.tripID(trip)
        let id = try upload.map { raw in
            guard let id = RequestValidation.uploadID(raw) else { throw APIError.uploadNotFound }
            return id
        }
        if request.method == "OPTIONS" { return uploadOptions() }
        guard let uploads = storage as? any UploadStorage, let blobs = configuration.uploads.blobStore else {
            throw APIError.uploadsUnavailable
        }
        let session = try await authenticate(request)
        if request.method == "GET", let id {
            // A download is plain HTTP with Range (NotesServer+Downloads.swift), not a tus request.
            return try await downloadUpload(request, id, trip: tripID, account: session.account, uploads, blobs)
        }
        try RequestValidation.tusVersion(request)
        if request.method == "PATCH" {
            // The cheap checks of the body before the token's lookup.
            try RequestValidation.uploadContentType(request)
            _ = try RequestValidation.uploadOffset(request)
            let limit = bodyLimit(method: request.method, path: request.path)
            guard request.body.count <= limit.bytes else { throw limit.refusal }
        } else if !request.body.isEmpty {
            throw APIError.bodyOnCreation
        }
        guard let id else {
            return try await createUpload(request, trip: tripID, account: session.account, uploads, blobs)
        }
        switch request.method {
        case "HEAD":
            return try await uploadOffset(id, trip: tripID, account: session.account, uploads)
        case "PATCH":
            return try await appendToUpload(request, id, trip: tripID, account: session.account, uploads, blobs)
        default:
            return try await terminateUpload(id, trip: tripID, account: session.account, uploads, blobs)
        }
    }

    /// `OPTIONS`: what a tus client asks before it starts.
    private func uploadOptions() -> HTTPResponse {
        var response = HTTPResponse.empty(204)
        response.headers["Tus-Version"] = WireRoutes.tusVersion
        response.headers["Tus-Extension"] = WireRoutes.tusExtensions
        response.headers["Tus-Max-Size"] = String(configuration.uploads.maxUploadBytes)
        response.headers[WireRoutes.maxChunkSizeHeader] = String(configuration.uploads.maxChunkBytes)
        return response
    }

    // MARK: - Creation

    /// `POST`: a new upload, offset 0. An empty upload is complete at once (its empty blob made
    /// durable before the answer).
    private func createUpload(
        _ request: HTTPRequest, trip: String, account: AccountID, _ uploads: any UploadStorage,
        _ blobs: any BlobStore
    ) async throws -> HTTPResponse {
        guard request.header("Upload-Defer-Length") == nil else { throw APIError.invalidUploadLength }
        let length = try RequestValidation.uploadLength(request)
        let settings = configuration.uploads
        guard length <= settings.maxUploadBytes else { throw APIError.uploadTooLarge(settings.maxUploadBytes) }
        let metadata = try RequestValidation.uploadMetadata(request)
        let created = now()
        let upload = StoredUpload(
            id: HexText.string(SecureRandom.bytes(16)), account: account, trip: trip,
            length: length, metadata: metadata, createdAt: created,
            expiresAt: length == 0 ? nil : created.addingTimeInterval(settings.expiry))
        switch try await uploads.createUpload(upload, quotaBytes: settings.accountQuotaBytes) {
        case .created: break
        case .notMember: throw APIError.tripNotFound
        case .readOnly: throw APIError.tripReadOnly
        case .quotaExceeded(let limit): throw APIError.uploadQuotaExceeded(limit)
        }
        if length == 0 {
            let id = upload.id
            try await BlockingWork.run {
                try blobs.append(Data(), to: id, at: 0)
                try blobs.sync(id)
            }
        }
        let location = WireRoutes.tripUpload(trip, upload.id)
        var response = HTTPResponse.json(
            201, UploadCreatedDTO(id: upload.id, location: location, length: length, expiresAt: upload.expiresAt))
        response.headers["Location"] = location
        response.headers["Upload-Offset"] = "0"
        if let expiresAt = upload.expiresAt {
            response.headers["Upload-Expires"] = RequestValidation.httpDate(expiresAt)
        }
        return response
    }

    // MARK: - Offset, appending, termination

    /// The caller's upload, unexpired: 404 when it is not theirs (or not in this trip, or gone),
    /// 410 when it expired unfinished.
    private func liveUpload(_ id: String, trip: String, account: AccountID, _ uploads: any UploadStorage)
        async throws -> StoredUpload
    {
        guard let upload = try await uploads.upload(id, trip: trip, account: account) else {
            throw APIError.uploadNotFound
        }
        if let expiresAt = upload.expiresAt, expiresAt <= now() { throw APIError.uploadExpired }
        return upload
    }

    /// The headers that tell where an upload stands.
    private static func state(of upload: StoredUpload, _ response: inout HTTPResponse) {
        response.headers["Upload-Offset"] = String(upload.offset)
        response.headers["Upload-Length"] = String(upload.length)
        if let expiresAt = upload.expiresAt {
            response.headers["Upload-Expires"] = RequestValidation.httpDate(expiresAt)
        }
    }

    /// `HEAD`: the confirmed offset (`Cache-Control: no-store`, as every answer).
    private func uploadOffset(_ id: String, trip: String, account: AccountID, _ uploads: any UploadStorage)
        async throws -> HTTPResponse
    {
        let upload = try await liveUpload(id, trip: trip, account: account, uploads)
        var response = HTTPResponse.empty(200)
        Self.state(of: upload, &response)
        if !upload.metadata.isEmpty { response.headers["Upload-Metadata"] = upload.metadata }
        return response
    }

    /// `PATCH`: writes the body at the confirmed offset, makes it durable, then moves the offset
    /// in the database, in that order, so the offset a client is told (or a crash leaves) is
    /// never ahead of the bytes kept. One PATCH of an upload at a time on this instance (423 for
    /// a second); across instances only one of two PATCHes checked against one offset confirms.
    private func appendToUpload(
        _ request: HTTPRequest, _ id: String, trip: String, account: AccountID, _ uploads: any UploadStorage,
        _ blobs: any BlobStore
    ) async throws -> HTTPResponse {
        let offset = try RequestValidation.uploadOffset(request)
        let lock = "\(account.rawValue)/\(id)"
        guard uploadLocks.claim(lock) else { throw APIError.uploadBusy }
        defer { uploadLocks.release(lock) }
        let upload = try await liveUpload(id, trip: trip, account: account, uploads)
        guard offset == upload.offset else {
            throw UploadRefusal(
                error: .uploadOffsetMismatch(upload.offset), headers: ["Upload-Offset": String(upload.offset)])
        }
        let body = request.body
        let end = offset + Int64(body.count)
        guard end <= upload.length else { throw APIError.beyondUploadLength(upload.length) }
        if !body.isEmpty {
            try await BlockingWork.run {
                try blobs.append(body, to: id, at: offset)
                try blobs.sync(id)
            }
        }
        var confirmed = upload
        confirmed.offset = end
        confirmed.expiresAt = end == upload.length ? nil : now().addingTimeInterval(configuration.uploads.expiry)
        switch try await uploads.confirmUpload(
            id, account: account, from: offset, to: end, expiresAt: confirmed.expiresAt, now: now())
        {
        case .confirmed:
            break
        case .offsetMoved(let current):
            throw UploadRefusal(error: .uploadOffsetMismatch(current), headers: ["Upload-Offset": String(current)])
        case .gone:
            // Terminated or collected while the bytes were written: they may have made the blob
            // again after its removal.
            try? await BlockingWork.run { try blobs.remove(id) }
            throw APIError.uploadNotFound
        }
        var response = HTTPResponse.empty(204)
        Self.state(of: confirmed, &response)
        return response
    }

    /// `DELETE`: the upload is gone to every route at once; its blob goes, then its row.
    private func terminateUpload(
        _ id: String, trip: String, account: AccountID, _ uploads: any UploadStorage, _ blobs: any BlobStore
    ) async throws -> HTTPResponse {
        guard try await uploads.beginRemovingUpload(id, trip: trip, account: account) != nil else {
            throw APIError.uploadNotFound
        }
        try await BlockingWork.run { try blobs.remove(id) }
        try await uploads.finishRemovingUploads([id])
        return .empty(204)
    }

    // MARK: - Expiry

    /// Removes the unfinished uploads that expired, in batches of `limit`: each batch is marked
    /// (gone to the routes), its blobs removed, then its rows deleted; a batch a crash cut short
    /// is finished by the next pass. Returns how many it removed; 0 where uploads are off.
    func removeExpiredUploads(limit: Int) async throws -> Int {
        guard let uploads = storage as? any UploadStorage, let blobs = configuration.uploads.blobStore else {
            return 0
        }
        var removed = 0
        while true {
            try Task.checkCancellation()
            let ids = try await uploads.beginRemovingExpiredUploads(before: now(), limit: limit)
            guard !ids.isEmpty else { break }
            try await BlockingWork.run { for id in ids { try blobs.remove(id) } }
            try await uploads.finishRemovingUploads(ids)
            removed += ids.count
            if ids.count < limit { break }
        }
        return removed
    }
}

/// The most body bytes a request may send, the answer to one that sends more, and, for an
/// upload's PATCH, the slowest rate (bytes a second) at which its body earns more time than the
/// request deadline to arrive.
struct BodyLimit {
    var bytes: Int
    var refusal: APIError
    var slowestRate: Int?
}

/// An upload route's refusal with headers of its own (the current `Upload-Offset` of a 409).
struct UploadRefusal: Error {
    var error: APIError
    var headers: [String: String]
}
