import Foundation
import QuireCrypto
import QuireWire
import Testing

@testable import QuireServer

/// A server (over either store) with uploads on, in a blob directory of its own, Alice's token
/// and a trip she owns; and the tus requests of the upload tests.
final class UploadHarness: Sendable {
    let harness: ServerHarness
    let blobs: URL
    let alice: String
    let trip: String

    var server: NotesServer { harness.server }

    static func settings(_ blobs: URL) -> UploadSettings {
        UploadSettings(
            blobDirectory: blobs.path, maxUploadBytes: 64 << 20, accountQuotaBytes: 256 << 20, expiry: 3600,
            maxChunkBytes: 1 << 20)
    }

    private init(harness: ServerHarness, blobs: URL, alice: String, trip: String) {
        self.harness = harness
        self.blobs = blobs
        self.alice = alice
        self.trip = trip
    }

    /// `change` adjusts the upload settings of the harness's configuration.
    static func start(_ store: StoreKind = .sqlite, _ change: (inout UploadSettings) -> Void = { _ in }) async throws
        -> UploadHarness
    {
        let blobs = FileManager.default.temporaryDirectory.appendingPathComponent("quire-blobs-\(UUID().uuidString)")
        var configuration = ServerHarness.configuration
        configuration.uploads = settings(blobs)
        change(&configuration.uploads)
        let harness = try await ServerHarness(store: store, configuration: configuration)
        let alice = try await harness.token("alice")
        let trip = try await harness.newTrip(token: alice)
        return UploadHarness(harness: harness, blobs: blobs, alice: alice, trip: trip)
    }

    deinit { try? FileManager.default.removeItem(at: blobs) }

    /// A tus request: `Tus-Resumable: 1.0.0`, the bearer token when given, then `headers`.
    func tus(
        _ method: String, _ path: String, token: String?, headers: [String: String] = [:], body: Data = Data()
    ) async -> HTTPResponse {
        var all = ["Tus-Resumable": WireRoutes.tusVersion]
        if let token { all["Authorization"] = "Bearer \(token)" }
        all.merge(headers) { $1 }
        return await server.handle(HTTPRequest(method: method, path: path, headers: all, body: body))
    }

    func create(length: Int, token: String? = nil, trip: String? = nil, metadata: String? = nil) async
        -> HTTPResponse
    {
        var headers = ["Upload-Length": String(length)]
        if let metadata { headers["Upload-Metadata"] = metadata }
        return await tus("POST", WireRoutes.tripUploads(trip ?? self.trip), token: token ?? alice, headers: headers)
    }

    /// A new upload's path; fails the test unless it was created.
    func newUpload(length: Int, token: String? = nil) async throws -> String {
        let response = await create(length: length, token: token)
        try #require(response.status == 201, "POST answered \(response.status): \(response.text)")
        return try #require(response.header("Location"))
    }

    func head(_ path: String, token: String? = nil) async -> HTTPResponse {
        await tus("HEAD", path, token: token ?? alice)
    }

    func patch(
        _ path: String, offset: Int, _ bytes: Data, token: String? = nil,
        contentType: String = WireRoutes.uploadContentType
    ) async -> HTTPResponse {
        await tus(
            "PATCH", path, token: token ?? alice,
            headers: ["Upload-Offset": String(offset), "Content-Type": contentType], body: bytes)
    }

    /// Sends `bytes` from `offset` in PATCHes of `chunk` bytes; fails the test unless each
    /// answers 204 with the new offset.
    func send(_ path: String, _ bytes: Data, from offset: Int = 0, chunk: Int, token: String? = nil) async throws {
        var at = offset
        while at < bytes.count {
            let end = min(bytes.count, at + chunk)
            let response = await patch(path, offset: at, Data(bytes[at..<end]), token: token)
            try #require(response.status == 204, "PATCH at \(at) answered \(response.status): \(response.text)")
            try #require(response.header("Upload-Offset") == String(end))
            at = end
        }
    }

    func delete(_ path: String, token: String? = nil) async -> HTTPResponse {
        await tus("DELETE", path, token: token ?? alice)
    }

    /// The upload id at the end of `path`.
    static func id(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }

    /// The blob's bytes as stored, nil when there is none.
    func blob(_ path: String) -> Data? {
        let id = Self.id(path)
        return FileManager.default.contents(
            atPath: blobs.appendingPathComponent(String(id.prefix(2))).appendingPathComponent(id).path)
    }
}
