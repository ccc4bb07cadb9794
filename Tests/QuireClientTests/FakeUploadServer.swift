import Foundation
import QuireClient
import QuireLock

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The upload routes as an ``HTTPTransport`` in memory, for the photo queue's tests: tus
/// creation, HEAD, PATCH at the confirmed offset, and ranged GETs of complete uploads, with
/// faults a test arms: a lost connection on the Nth PATCH, an upload forgotten (404), a refusal
/// of every creation.
final class FakeUploadServer: HTTPTransport, Sendable {
    struct Upload: Equatable {
        var length: Int
        var bytes = Data()
    }

    struct State {
        var uploads: [String: Upload] = [:]
        var created = 0
        /// The `Upload-Offset` of every PATCH that was stored, in order.
        var patchOffsets: [Int] = []
        /// PATCHes left before one is lost (the connection drops before its answer, nothing
        /// stored); nil: none is.
        var patchesBeforeLoss: Int?
        /// Creations are refused with this answer.
        var refusal: (status: Int, code: String, message: String)?
    }

    let state = QuireLock.Locked(State())

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        try state.withLock { state in try Self.answer(request, &state) }
    }

    /// Forgets every upload (as an expiry would): HEAD and PATCH answer 404 from now on.
    func forgetUploads() { state.withLock { $0.uploads = [:] } }

    /// The bytes of the upload at the end of `path`.
    func bytes(_ upload: String) -> Data? {
        state.withLock { $0.uploads.first { $0.key.hasSuffix(upload) }?.value.bytes }
    }

    private static func answer(_ request: TransportRequest, _ state: inout State) throws -> TransportResponse {
        let header = { (name: String) in request.headers.first { $0.key.lowercased() == name.lowercased() }?.value }
        switch request.method {
        case "POST":
            if let refusal = state.refusal {
                return TransportResponse(
                    status: refusal.status,
                    body: Data(#"{"error":{"code":"\#(refusal.code)","message":"\#(refusal.message)"}}"#.utf8))
            }
            state.created += 1
            let path = request.path + "/" + String(format: "%032x", state.created)
            state.uploads[path] = Upload(length: Int(header("Upload-Length") ?? "") ?? 0)
            return TransportResponse(status: 201, headers: ["Location": path, "Upload-Offset": "0"])
        case "HEAD":
            guard let upload = state.uploads[request.path] else { return TransportResponse(status: 404) }
            return TransportResponse(
                status: 200, headers: ["Upload-Offset": "\(upload.bytes.count)", "Upload-Length": "\(upload.length)"])
        case "PATCH":
            guard var upload = state.uploads[request.path] else { return TransportResponse(status: 404) }
            if let left = state.patchesBeforeLoss {
                if left == 0 {
                    state.patchesBeforeLoss = nil
                    throw URLError(.networkConnectionLost)
                }
                state.patchesBeforeLoss = left - 1
            }
            let offset = Int(header("Upload-Offset") ?? "") ?? -1
            guard offset == upload.bytes.count else {
                return TransportResponse(status: 409, headers: ["Upload-Offset": "\(upload.bytes.count)"])
            }
            upload.bytes += request.body ?? Data()
            state.uploads[request.path] = upload
            state.patchOffsets.append(offset)
            return TransportResponse(status: 204, headers: ["Upload-Offset": "\(upload.bytes.count)"])
        case "DELETE":
            let found = state.uploads.removeValue(forKey: request.path) != nil
            return TransportResponse(status: found ? 204 : 404)
        default:
            guard let upload = state.uploads[request.path], upload.bytes.count == upload.length,
                let range = header("Range"), range.hasPrefix("bytes=")
            else { return TransportResponse(status: 404) }
            let bounds = range.dropFirst(6).split(separator: "-").compactMap { Int($0) }
            let start = bounds[0]
            let end = min(upload.length - 1, bounds.count > 1 ? bounds[1] : upload.length - 1)
            return TransportResponse(
                status: 206, headers: ["Content-Range": "bytes \(start)-\(end)/\(upload.length)"],
                body: upload.bytes.subdata(in: start..<(end + 1)))
        }
    }
}

/// A ``PhotoPreparing`` for tests: copies the photo as it is and writes a "thumbnail" of the
/// photo's first 1,000 bytes, so the queue has two files to upload.
struct CopyingPhotoPreparer: PhotoPreparing {
    func prepare(_ source: URL, keepLocation: Bool, into directory: URL) throws -> PreparedPhoto {
        let photo = directory.appendingPathComponent("photo.jpg")
        let thumbnail = directory.appendingPathComponent("thumbnail.jpg")
        try FileManager.default.copyItem(at: source, to: photo)
        try Data(try Data(contentsOf: source).prefix(1000)).write(to: thumbnail)
        return PreparedPhoto(photo: photo, thumbnail: thumbnail, mediaType: "image/jpeg", width: 4032, height: 3024)
    }
}
