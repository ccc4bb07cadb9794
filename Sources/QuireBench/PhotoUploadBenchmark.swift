import Foundation
import QuireCrypto
import QuireServer
import QuireTestSupport
import QuireWire

/// Uploading a 200 MB photo over loopback (issue 16): the device seals it and sends it in
/// PATCHes of 4 MiB, each made durable by the server before its offset is confirmed, in a child
/// process (``PhotoUploadChild``) whose peak memory is measured; the baseline is `curl` sending
/// a ciphertext of the same size to the same server in one PATCH (which the server, set here to
/// take a body that large, also holds in memory and makes durable once).
enum PhotoUploadBenchmark {
    static let name = "photo-upload"
    static let piece = 4 * 1024 * 1024

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let megabytes = context.options.quick ? 20 : 200
        let directory = try context.directory("photo-upload")
        var configuration = NotesServerConfiguration()
        configuration.uploads = UploadSettings(
            blobDirectory: directory.appendingPathComponent("blobs").path, maxUploadBytes: 1 << 30,
            accountQuotaBytes: 4 << 30, maxChunkBytes: 256 << 20)
        let core = try NotesServer.sqlite(
            path: directory.appendingPathComponent("server.sqlite").path, configuration: configuration, log: { _ in })
        let host = try MicroHTTPServer(core: core, host: "127.0.0.1", port: 0)
        defer { Task { await host.stop() } }
        let (_, token) = try await BenchAccount.make(server: core)
        let trip = UUID().uuidString.lowercased()
        let created = await core.handle(
            HTTPRequest(
                method: "PUT", path: WireRoutes.trip(trip), headers: ["Authorization": "Bearer \(token)"],
                body: WireJSON.encode(CreateTripRequestDTO(wrappedKey: Data(count: 60).base64EncodedString()))))
        guard created.status == 201 else { throw BenchFailure("the trip was not made (\(created.status))") }

        progress("\(name): writing a \(megabytes) MB photo")
        let photo = directory.appendingPathComponent("photo.jpg")
        guard FileManager.default.createFile(atPath: photo.path, contents: nil) else {
            throw BenchFailure("cannot write \(photo.path)")
        }
        let handle = try FileHandle(forWritingTo: photo)
        for _ in 0..<megabytes { try handle.write(contentsOf: SecureRandom.bytes(1_000_000)) }
        try handle.close()

        progress("\(name): curl sends a ciphertext of the same size in one PATCH")
        let sealed = directory.appendingPathComponent("photo.sealed")
        try ChunkedSealer.sealFile(at: photo, to: sealed, key: SymmetricKey256.random())
        let curl = try await curlBaseline(core: core, baseURL: host.baseURL, token: token, trip: trip, file: sealed)

        progress("\(name): the device seals and uploads it in a child process")
        let report = try Child.report(
            PhotoUploadChild.Report.self, of: "upload",
            [
                PhotoUploadChild.subcommand, host.baseURL.absoluteString, token, trip,
                try context.directory("photo-device").path, photo.path, "\(piece)",
            ])
        if let failure = report.failure { throw BenchFailure("the child's upload failed: \(failure)") }

        let rate = { (seconds: Double) in Double(report.sealedBytes) / 1_000_000 / seconds }
        var rows = [
            BenchRow(
                benchmark: name, label: "upload of a \(megabytes) MB photo over loopback, \(piece >> 20) MiB PATCHes",
                measured: String(format: "%.2f s (%.0f MB/s)", report.uploadSeconds, rate(report.uploadSeconds)),
                baseline: curl.map { String(format: "%.2f s (%.0f MB/s) curl, one PATCH", $0, rate($0)) }
                    ?? "curl unavailable",
                ratio: curl.map { report.uploadSeconds / $0 }, target: "ratio ≤ 2",
                met: curl.map { report.uploadSeconds / $0 <= 2 },
                note: "each PATCH is fsynced before its offset is confirmed and saved on the device; "
                    + String(format: "sealing took %.2f s more", report.sealSeconds))
        ]
        progress("\(name): quire registers, adds a \(megabytes) MB JPEG to a trip and syncs it")
        let label = "peak memory of the uploading device (`quire sync`, VmHWM)"
        let child = report.peakKiB.map { String(format: "%.1f MiB in the bench's own child", Double($0) / 1024) }
        do {
            let peak = try await PhotoUploadDevice.peakOfSync(
                baseURL: host.baseURL, directory: try context.directory("photo-quire"), megabytes: megabytes)
            let mebibytes = Double(peak) / 1_048_576
            rows.append(
                BenchRow(
                    benchmark: name, label: label, measured: String(format: "%.1f MiB", mebibytes),
                    baseline: child ?? "-", target: "< 50 MB", met: Double(peak) < 50_000_000,
                    note: "the built quire, release; the bench's child links the server, libpq and libvips too"))
        } catch let missing as BuiltProducts.Missing {
            rows.append(
                .notMeasured(
                    name, label, reason: "\(missing.name) is not built beside quire-bench (swift build -c release)",
                    target: "< 50 MB"))
        }
        return rows
    }

    /// curl's `time_total` for one PATCH of the whole `file` to a new upload; nil without curl.
    private static func curlBaseline(core: NotesServer, baseURL: URL, token: String, trip: String, file: URL)
        async throws -> Double?
    {
        guard let curl = Child.which("curl") else { return nil }
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        let response = await core.handle(
            HTTPRequest(
                method: "POST", path: WireRoutes.tripUploads(trip),
                headers: ["Authorization": "Bearer \(token)", "Tus-Resumable": "1.0.0", "Upload-Length": "\(size)"]))
        guard let path = response.header("Location") else { throw BenchFailure("curl's upload was not created") }
        let (status, output) = try Child.run(
            curl,
            [
                "-s", "-f", "-o", "/dev/null", "-w", "%{time_total}", "-X", "PATCH", "-T", file.path,
                "-H", "Authorization: Bearer \(token)", "-H", "Tus-Resumable: 1.0.0", "-H", "Upload-Offset: 0",
                "-H", "Content-Type: application/offset+octet-stream", "-H", "Expect:", baseURL.absoluteString + path,
            ])
        guard status == 0, let seconds = Double(String(decoding: output, as: UTF8.self)) else {
            throw BenchFailure("curl's PATCH failed (\(status))")
        }
        return seconds
    }
}
