import Foundation
import QuireTrips
import QuireWire

/// The device's side of the upload routes (tus 1.0 under a trip, and the download route), over
/// the device's transport with its token handling (``AuthorizedTransport``): creation, HEAD for
/// the confirmed offset, PATCH of one piece at a time, and ranged GETs.
///
/// Each call sends one request and holds at most one piece in memory; the caller streams a file
/// by calling ``append(_:at:bytes:)`` piece by piece, saving each confirmed offset. Failures other
/// than the answers each method names are ``NotesAPIError`` (no answer, 401 after a refresh,
/// 5xx, a refusal).
package struct TusClient: Sendable {
    let http: AuthorizedTransport
    /// How long one PATCH or ranged GET may take (a piece of a few MiB on a slow uplink).
    let pieceTimeout: TimeInterval

    package init(http: AuthorizedTransport, pieceTimeout: TimeInterval = 300) {
        self.http = http
        self.pieceTimeout = pieceTimeout
    }

    /// Where an upload stands.
    enum Offset: Equatable {
        /// The server's confirmed offset.
        case at(Int64)
        /// 404 or 410: the upload expired unfinished or is gone; start a new one.
        case gone
    }

    /// Creates an upload of `length` bytes in `trip`; returns its path (`Location`).
    func create(in trip: TripID, length: Int64) async throws -> String {
        let response = try await http.send(
            TransportRequest(
                method: "POST", path: WireRoutes.tripUploads(trip.description),
                headers: ["Tus-Resumable": WireRoutes.tusVersion, "Upload-Length": String(length)]))
        guard response.status == 201, let location = response.headers["location"].map(Self.path(of:)) else {
            throw response.status == 201
                ? NotesAPIError(
                    kind: .invalidResponse, status: 201, message: "The upload was created without a Location.")
                : AuthorizedTransport.failure(response)
        }
        return location
    }

    /// HEAD: the confirmed offset of the upload at `location`.
    func offset(of location: String) async throws -> Offset {
        let response = try await http.send(
            TransportRequest(method: "HEAD", path: location, headers: ["Tus-Resumable": WireRoutes.tusVersion]))
        if response.status == 404 || response.status == 410 { return .gone }
        guard response.status == 200 else { throw AuthorizedTransport.failure(response) }
        return .at(try Self.uploadOffset(response))
    }

    /// PATCH: `bytes` at `offset`. Returns the new confirmed offset; on 409 the server's offset
    /// (send from there), and `.gone` on 404 or 410.
    func append(_ location: String, at offset: Int64, bytes: Data) async throws -> Offset {
        let response = try await http.send(
            TransportRequest(
                method: "PATCH", path: location,
                headers: [
                    "Tus-Resumable": WireRoutes.tusVersion, "Upload-Offset": String(offset),
                    "Content-Type": WireRoutes.uploadContentType,
                ], body: bytes, timeout: pieceTimeout))
        switch response.status {
        case 204, 409: return .at(try Self.uploadOffset(response))
        case 404, 410: return .gone
        default: throw AuthorizedTransport.failure(response)
        }
    }

    /// DELETE (tus termination): the upload's bytes go and stop counting against the quota. An
    /// upload already gone (404, 410) counts as terminated.
    func terminate(_ location: String) async throws {
        let response = try await http.send(
            TransportRequest(method: "DELETE", path: location, headers: ["Tus-Resumable": WireRoutes.tusVersion]))
        guard [204, 404, 410].contains(response.status) else { throw AuthorizedTransport.failure(response) }
    }

    /// GET with `Range`: the bytes of a complete upload from `start`, at most `count` of them
    /// (fewer when the server answers a shorter part or the upload ends first).
    func download(trip: TripID, upload: String, from start: Int64, count: Int) async throws -> Data {
        let response = try await http.send(
            TransportRequest(
                method: "GET", path: WireRoutes.tripUpload(trip.description, upload),
                headers: ["Range": "bytes=\(start)-\(start + Int64(count) - 1)"], timeout: pieceTimeout))
        guard response.status == 206 else { throw AuthorizedTransport.failure(response) }
        guard let range = response.headers["content-range"], range.hasPrefix("bytes \(start)-") else {
            throw NotesAPIError(
                kind: .invalidResponse, status: 206,
                message: "The server answered another range than the one asked for (from byte \(start)).")
        }
        return response.body
    }

    /// The path of a `Location` (tus allows an absolute URL or a path).
    static func path(of location: String) -> String {
        guard let url = URL(string: location), url.scheme != nil else { return location }
        return url.path
    }

    private static func uploadOffset(_ response: TransportResponse) throws -> Int64 {
        guard let text = response.headers["upload-offset"], let offset = Int64(text), offset >= 0 else {
            throw NotesAPIError(
                kind: .invalidResponse, status: response.status, message: "The server's answer had no Upload-Offset.")
        }
        return offset
    }

    /// The upload id at the end of an upload's path.
    static func uploadID(ofPath path: String) -> String {
        String(path.split(separator: "/").last ?? "")
    }
}
