import Foundation
import QuireCrypto
import QuireTestSupport
import Testing

/// A tus client nobody here wrote uploads to a real `quire-server` on loopback: `tuspy` (PyPI,
/// pinned in `scripts/setup.sh`, in `.build/venv-ci`), run as a child process. It uploads a sealed
/// photo of a few MB in PATCHes of under 1 MiB (the server takes at most 1 MiB a PATCH here),
/// stops halfway and a fresh uploader resumes from the offset HEAD answers; the blob the server
/// stored opens (ChunkedOpener) to the original bytes. The test fails, never skips, when the venv
/// is missing.
final class TusClientUploadTests {
    struct Missing: Error, CustomStringConvertible {
        var path: String
        var description: String {
            "The tus client test needs \(path) with tuspy installed: run `bash scripts/setup.sh` (it creates "
                + ".build/venv-ci with the pinned icalendar and tuspy), then run the tests again."
        }
    }

    static var python: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/venv-ci/bin/python").path
    }

    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("quire-tuspy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Registers, signs in and makes a trip with `requests`, then uploads `argv[2]` with tuspy in
    /// chunks of `argv[3]` bytes: half with one uploader, the rest with a new one made from the
    /// upload's URL (HEAD for the offset, as a restarted client resumes). Prints one JSON line.
    static let script = #"""
        import base64, json, os, re, sys, uuid
        import requests
        from importlib.metadata import version
        from tusclient import client
        from tusclient.uploader import Uploader

        base, path, chunk = sys.argv[1].rstrip("/"), sys.argv[2], int(sys.argv[3])
        b64 = lambda n: base64.b64encode(os.urandom(n)).decode()
        name, auth = "tus" + uuid.uuid4().hex[:8], b64(32)
        r = requests.post(base + "/v1/accounts", json={"username": name, "authKey": auth,
            "kdf": {"algorithm": "pbkdf2-sha256", "salt": b64(16), "iterations": 1000}, "wrappedNotesKey": b64(60)})
        assert r.status_code == 201, r.text
        r = requests.post(base + "/v1/sessions", json={"username": name, "authKey": auth, "deviceName": "tuspy"})
        assert r.status_code == 200, r.text
        bearer = {"Authorization": "Bearer " + r.json()["accessToken"]}
        trip = str(uuid.uuid4())
        r = requests.put(f"{base}/v1/trips/{trip}", json={"wrappedKey": b64(60)}, headers=bearer)
        assert r.status_code == 201, r.text

        collection = f"{base}/v1/trips/{trip}/uploads"
        options = requests.options(collection)
        tus = client.TusClient(collection, headers=bearer)
        size = os.path.getsize(path)
        first = tus.uploader(path, chunk_size=chunk, metadata={"kind": "photo"})
        first.upload(stop_at=size // 2)
        stopped_at = first.offset
        resumed = Uploader(path, url=first.url, client=tus, chunk_size=chunk)
        resumed_from = resumed.offset
        resumed.upload()
        head = requests.head(first.url, headers=dict(bearer, **{"Tus-Resumable": "1.0.0"}))
        metrics = requests.get(base + "/metrics").text
        patches = re.search(r'quire_http_requests_total\{route="/v1/trips/\{id\}/uploads/\{upload\}",method="PATCH",status="204"\} (\d+)', metrics)
        print(json.dumps({
            "tuspy": version("tuspy"), "url": first.url, "tusVersion": options.headers.get("Tus-Version"),
            "extensions": options.headers.get("Tus-Extension"), "stoppedAt": stopped_at, "resumedFrom": resumed_from,
            "finalOffset": resumed.offset, "headOffset": head.headers.get("Upload-Offset"),
            "headLength": head.headers.get("Upload-Length"), "metadata": head.headers.get("Upload-Metadata"),
            "patches": int(patches.group(1)) if patches else 0}))
        """#

    struct Report: Decodable {
        var tuspy: String
        var url: String
        var tusVersion: String?
        var extensions: String?
        var stoppedAt: Int
        var resumedFrom: Int
        var finalOffset: Int
        var headOffset: String?
        var headLength: String?
        var metadata: String?
        var patches: Int
    }

    @Test func tuspyUploadsASealedPhotoInChunksAndItArrivesByteForByte() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else { throw Missing(path: Self.python) }
        let blobs = directory.appendingPathComponent("blobs")
        let server = try await ServerProcess.start(
            databaseFile: directory.appendingPathComponent("server.sqlite"),
            extraArguments: [
                "--blobs", blobs.path, "--min-kdf-iterations", "1000", "--auth-hash-iterations", "1000",
                "--upload-chunk-mib", "1",
            ])
        defer { server.terminate() }
        let photo = SecureRandom.bytes(4 * 1024 * 1024 + 12_345)
        let key = SymmetricKey256.random()
        let plain = directory.appendingPathComponent("photo.jpg")
        let sealed = directory.appendingPathComponent("photo.sealed")
        try photo.write(to: plain)
        let sizes = try ChunkedSealer.sealFile(at: plain, to: sealed, key: key)
        let script = directory.appendingPathComponent("upload.py")
        try Data(Self.script.utf8).write(to: script)
        let chunk = 1024 * 1024 - 4321

        let run = try await ProcessRunner.run(
            URL(fileURLWithPath: Self.python), [script.path, server.url.absoluteString, sealed.path, String(chunk)],
            timeout: 120)

        try #require(run.exitCode == 0, "tuspy failed: \(run.output)")
        let line = try #require(run.stdout.split(separator: "\n").last)
        let report = try JSONDecoder().decode(Report.self, from: Data(line.utf8))
        #expect(report.tuspy == "1.1.0")
        #expect(report.tusVersion == "1.0.0" && report.extensions == "creation,expiration,termination")
        #expect(report.stoppedAt > 0 && report.stoppedAt < sizes.sealedBytes)
        #expect(report.resumedFrom == report.stoppedAt)
        #expect(report.finalOffset == sizes.sealedBytes)
        #expect(report.headOffset == String(sizes.sealedBytes) && report.headLength == String(sizes.sealedBytes))
        #expect(report.metadata == "kind " + Data("photo".utf8).base64EncodedString())
        // Each half in PATCHes of at most `chunk` bytes, none refused.
        let rest = sizes.sealedBytes - report.stoppedAt
        #expect(report.patches == (report.stoppedAt + chunk - 1) / chunk + (rest + chunk - 1) / chunk)
        #expect(report.patches >= 5)
        let id = String(report.url.split(separator: "/").last ?? "")
        let blob = blobs.appendingPathComponent(String(id.prefix(2))).appendingPathComponent(id)
        #expect(try SHA256Digest.hex(Data(contentsOf: blob)) == SHA256Digest.hex(Data(contentsOf: sealed)))
        let opened = directory.appendingPathComponent("opened.jpg")
        try ChunkedOpener.openFile(at: blob, to: opened, key: key)
        #expect(try Data(contentsOf: opened) == photo)
    }
}
