import Foundation
import QuireCrypto
import QuireWire

/// The download route of the uploads (issue 16, part 5): `GET /v1/trips/{id}/uploads/{upload}`.
///
/// Any member of the trip (a viewer too) may fetch a complete upload's bytes, whoever uploaded
/// it: a photo attached to an item is for everyone the trip is shared with. They are ciphertext
/// the devices sealed; the key travels inside the item's attach op, sealed with the trip key, so
/// the server hands out bytes it cannot read. An unfinished upload, one in another trip, and any
/// upload of a trip the caller is not a member of are 404, as one that does not exist.
///
/// Downloads are resumable and bounded: `Range: bytes=FIRST-LAST` answers 206 with
/// `Content-Range`, at most ``UploadSettings/maxChunkBytes`` at a time (a longer range is
/// answered with its first part, which `Content-Range` names, as RFC 9110 allows); a request
/// without `Range` gets the whole upload (200) only when it fits in that limit, since the host
/// holds an answer in memory until it is sent.
extension NotesServer {
    func downloadUpload(
        _ request: HTTPRequest, _ id: String, trip: String, account: AccountID, _ uploads: any UploadStorage,
        _ blobs: any BlobStore
    ) async throws -> HTTPResponse {
        // The upload first: a malformed Range on an upload the caller may not see is still 404.
        guard let upload = try await uploads.completedUpload(id, trip: trip, member: account) else {
            throw APIError.uploadNotFound
        }
        // An empty upload has no byte any range could name (RFC 9110 would answer 416); it is
        // answered whole, with 200, as RFC 9110 lets a server ignore Range (schemathesis ST202).
        let parsed = try ByteRangeRequest.parse(request.header("Range"))
        let range = upload.length == 0 ? nil : parsed
        let most = Int64(configuration.uploads.maxChunkBytes)
        let wanted: Range<Int64>
        if let range {
            guard let bytes = range.bytes(ofLength: upload.length) else {
                throw UploadRefusal(
                    error: .rangeNotSatisfiable(upload.length), headers: ["Content-Range": "bytes */\(upload.length)"])
            }
            wanted = bytes.lowerBound..<min(bytes.upperBound, bytes.lowerBound + most)
        } else {
            guard upload.length <= most else { throw APIError.rangeRequired(length: upload.length, most: most) }
            wanted = 0..<upload.length
        }
        let data = wanted.isEmpty ? Data() : try await BlockingWork.run { try blobs.read(id, range: wanted) }
        // Fewer bytes than the database confirmed: the blob directory lost some (a disk fault, or a
        // file cut by hand). Say so instead of answering a range that does not hold what it names.
        if data.isEmpty, !wanted.isEmpty { throw APIError.blobDamaged }
        var response = HTTPResponse(status: range == nil ? 200 : 206, headers: HTTPResponse.baseHeaders, body: data)
        response.headers["Content-Type"] = "application/octet-stream"
        response.headers["Accept-Ranges"] = "bytes"
        if range != nil {
            let last = wanted.lowerBound + Int64(data.count) - 1
            response.headers["Content-Range"] = "bytes \(wanted.lowerBound)-\(last)/\(upload.length)"
        }
        return response
    }
}
