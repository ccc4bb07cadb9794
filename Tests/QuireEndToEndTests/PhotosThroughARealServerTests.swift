import Foundation
import QuireCrypto
import QuireTestSupport
import Testing

/// Trip photos (issue 16, parts 3, 5 and 6) between `quire` devices of three accounts sharing a
/// trip, through a real `quire-server` process on loopback: an owner adds a photo, companions
/// see it once its upload is complete and download it byte for byte; a viewer's photo is refused
/// and kept; nobody outside the trip can reach the upload; a damaged download is refused.
@Suite struct PhotosThroughARealServerTests {
    /// The shared trip of ``SharedTripsThroughARealServerTests``: alice owns it, bob edits,
    /// carol views.
    typealias Setup = SharedTripsThroughARealServerTests.Setup

    static func sharedSetup() async throws -> Setup {
        let setup = try await Setup()
        try await setup.share(with: setup.bob, "bob", role: "editor")
        try await setup.share(with: setup.carol, "carol", role: "viewer")
        return setup
    }

    /// A file of `count` random bytes named `name` in the setup's folder.
    static func photo(_ setup: Setup, _ name: String, count: Int) throws -> (url: URL, bytes: Data) {
        let bytes = SecureRandom.bytes(count)
        let url = setup.root.path(name)
        try bytes.write(to: url)
        return (url, bytes)
    }

    /// `quire trip photos ITEM --json`, decoded.
    static func photos(_ device: CLIDevice, _ item: String) async throws -> [CLIPhoto] {
        try JSONDecoder().decode(
            [CLIPhoto].self, from: Data(try await device.ok("trip", "photos", item, "--json").utf8))
    }

    /// The blob files in the server's blob directory (beside `server.sqlite`).
    static func blobs(_ setup: Setup) -> [URL] {
        let root = setup.root.path("server-blobs")
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        return (enumerator?.allObjects as? [URL] ?? []).filter { $0.lastPathComponent.count == 32 }
    }

    @Test func aCompanionSeesThePhotoOnlyOnceItIsUploadedAndDownloadsTheSameBytes() async throws {
        let setup = try await Self.sharedSetup()
        defer { setup.tearDown() }
        let (file, bytes) = try Self.photo(setup, "beach.jpg", count: 3_000_000)

        // This build cannot remove location: it says so and queues nothing.
        let refused = try await setup.alice.run("trip", "photo", "add", setup.lunch, file.path)
        #expect(refused.exitCode == 65)
        #expect(refused.stderr.contains("cannot remove location metadata"), "\(refused.stderr)")
        #expect(try await Self.photos(setup.alice, setup.lunch).isEmpty)

        let id = try await setup.alice.ok("trip", "photo", "add", setup.lunch, file.path, "--keep-location")
        let queued = try await Self.photos(setup.alice, setup.lunch)
        #expect(queued.map(\.id) == [id] && queued.first?.state == "queued")
        #expect(queued.first?.mediaType == "image/jpeg" && queued.first?.size == 3_000_000)
        let status = try await setup.alice.ok("status")
        #expect(status.contains("uploading 1 photo, 0.0 of 3.0 MB"), "\(status)")
        let statusJSON = try #require(
            try JSONSerialization.jsonObject(with: Data(try await setup.alice.ok("status", "--json").utf8))
                as? [String: Any])
        #expect((statusJSON["photos"] as? [String: Any])?["uploading"] as? Int == 1)
        // Nothing is on the server yet: a companion's sync brings no photo.
        try await setup.bob.ok("sync")
        #expect(try await Self.photos(setup.bob, setup.lunch).isEmpty)

        let synced = try await setup.alice.ok("sync")
        #expect(synced.contains("photos: 1 uploaded"), "\(synced)")
        #expect(try await Self.photos(setup.alice, setup.lunch).first?.state == "shared")
        #expect(!(try await setup.alice.ok("status")).contains("uploading"))

        for companion in [setup.bob, setup.carol] {
            try await companion.ok("sync")
            let seen = try await Self.photos(companion, setup.lunch)
            #expect(seen.map(\.id) == [id] && seen.first?.state == "shared")
            let out = setup.root.path("got-\(UUID().uuidString).jpg")
            try await companion.ok("trip", "photo", "get", String(id.prefix(8)), "--out", out.path)
            #expect(SHA256Digest.hex(try Data(contentsOf: out)) == SHA256Digest.hex(bytes))
        }
        // The server holds one blob: ciphertext, with none of the photo's bytes in it.
        let blobs = Self.blobs(setup)
        #expect(blobs.count == 1)
        let stored = try Data(contentsOf: try #require(blobs.first))
        #expect(stored.count > bytes.count && stored.range(of: bytes.prefix(32)) == nil)

        // Removing it is an op like any: gone on every device after their syncs.
        try await setup.alice.ok("trip", "photo", "rm", String(id.prefix(8)))
        #expect(try await Self.photos(setup.alice, setup.lunch).first?.state == "removing")
        try await setup.alice.ok("sync")
        try await setup.bob.ok("sync")
        #expect(try await Self.photos(setup.bob, setup.lunch).isEmpty)
    }

    @Test func quireWatchUploadsAPhotoAddedWhileItRuns() async throws {
        let setup = try await Self.sharedSetup()
        defer { setup.tearDown() }
        let watch = try BackgroundQuire.start(setup.alice, "watch")
        defer { watch.stop() }
        let (file, _) = try Self.photo(setup, "beach.jpg", count: 500_000)

        let id = try await setup.alice.ok("trip", "photo", "add", setup.lunch, file.path, "--keep-location")
        // No sync is asked for: adding the photo is the watch's trigger, as an edit is.
        let deadline = ContinuousClock.now + .seconds(30)
        var state = ""
        while ContinuousClock.now < deadline {
            state = try await Self.photos(setup.alice, setup.lunch).first?.state ?? ""
            if state == "shared" { break }
            try await Task.sleep(for: .milliseconds(100))
        }

        #expect(state == "shared", "the watch left the photo \(state)")
        try await setup.bob.ok("sync")
        #expect(try await Self.photos(setup.bob, setup.lunch).map(\.id) == [id])
    }

    @Test func aViewersPhotoIsRefusedKeptAndSaysWhy() async throws {
        let setup = try await Self.sharedSetup()
        defer { setup.tearDown() }
        let (file, _) = try Self.photo(setup, "selfie.png", count: 100_000)

        let id = try await setup.carol.ok("trip", "photo", "add", setup.lunch, file.path, "--keep-location")
        let synced = try await setup.carol.run("sync")
        let kept = try await Self.photos(setup.carol, setup.lunch)

        #expect(synced.exitCode == 75, "\(synced.stderr)")
        #expect(synced.stderr.contains("1 photo(s) were refused"), "\(synced.stderr)")
        #expect(kept.map(\.id) == [id] && kept.first?.state == "failed")
        #expect(
            kept.first?.error?.contains("read it but not change it") == true, "\(String(describing: kept.first?.error))"
        )
        #expect(try await setup.carol.ok("status").contains("Photos refused: 1"))
        try await setup.alice.ok("sync")
        #expect(try await Self.photos(setup.alice, setup.lunch).isEmpty)
        #expect(Self.blobs(setup).isEmpty)
    }

    @Test func anotherAccountCannotHeadPatchOrGetTheUpload() async throws {
        let setup = try await Self.sharedSetup()
        defer { setup.tearDown() }
        let mallory = CLIDevice(setup.root, "mallory")
        try await mallory.ok(
            ["register", setup.server.url.absoluteString, "mallory", "--password-stdin"], stdin: "correct horse\n")
        let (file, _) = try Self.photo(setup, "beach.jpg", count: 200_000)
        try await setup.alice.ok("trip", "photo", "add", setup.lunch, file.path, "--keep-location")
        try await setup.alice.ok("sync")
        let upload = try #require(Self.blobs(setup).first?.lastPathComponent)
        let port = try #require(setup.server.url.port.map(UInt16.init))
        let path = "/v1/trips/\(setup.trip)/uploads/\(upload)"
        let headers = ["Authorization": "Bearer \(try Self.token(of: mallory))", "Tus-Resumable": "1.0.0"]

        for (method, extra) in [
            ("HEAD", [:]), ("GET", ["Range": "bytes=0-99"]),
            ("PATCH", ["Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"]),
        ] as [(String, [String: String])] {
            let sent = headers.merging(extra) { $1 }
            let answer = await onThread { LoopbackExchange.send(port: port, method, path, headers: sent) }
            #expect(answer?.status == 404, "\(method) answered \(String(describing: answer?.status))")
        }
        // Bob, a member, downloads it with the same request.
        let bobs = ["Authorization": "Bearer \(try Self.token(of: setup.bob))", "Range": "bytes=0-99"]
        let member = await onThread { LoopbackExchange.send(port: port, "GET", path, headers: bobs) }
        #expect(member?.status == 206)
    }

    /// The access token `device` signed in with (its `session.json`).
    static func token(of device: CLIDevice) throws -> String {
        let session =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: device.directory.appendingPathComponent("session.json"))) as? [String: Any]
        return try #require(session?["accessToken"] as? String)
    }

    @Test func aChangedCutOrReorderedBlobIsRefusedAndNeverWritten() async throws {
        let setup = try await Self.sharedSetup()
        defer { setup.tearDown() }
        // Five 64 KiB chunks and a bit.
        let (file, bytes) = try Self.photo(setup, "beach.jpg", count: 5 * 65_536 + 1_000)
        let id = try await setup.alice.ok("trip", "photo", "add", setup.lunch, file.path, "--keep-location")
        try await setup.alice.ok("sync")
        try await setup.bob.ok("sync")
        let blob = try #require(Self.blobs(setup).first)
        let original = try Data(contentsOf: blob)
        let header = 44
        let chunk = 65_536 + 16

        var changed = original
        changed[header + chunk + 100] ^= 0x01
        var reordered = original
        reordered.replaceSubrange(
            (header)..<(header + 2 * chunk),
            with: original[(header + chunk)..<(header + 2 * chunk)] + original[header..<(header + chunk)])
        let cut = original.prefix(header + 3 * chunk)
        for (what, damaged) in [("a changed byte", changed), ("two chunks swapped", reordered), ("cut", Data(cut))] {
            try damaged.write(to: blob)
            let out = setup.root.path("got-\(UUID().uuidString).jpg")
            let result = try await setup.bob.run("trip", "photo", "get", id, "--out", out.path)
            #expect(result.exitCode == 65, "\(what): \(result.stderr)")
            #expect(result.stderr.contains("damaged"), "\(what): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path), "\(what) was written")
            let cache = setup.bob.directory.appendingPathComponent("photo-cache")
            let kept = (try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []
            #expect(kept.isEmpty, "\(what) left \(kept) in the cache")
        }

        try original.write(to: blob)
        let out = setup.root.path("good.jpg")
        try await setup.bob.ok("trip", "photo", "get", id, "--out", out.path)
        #expect(try Data(contentsOf: out) == bytes)
    }
}

/// One photo as `quire trip photos --json` prints it.
struct CLIPhoto: Decodable {
    var id: String
    var state: String
    var mediaType: String?
    var size: Int64?
    var uploadBytes: Int64?
    var uploadedBytes: Int64?
    var error: String?
}
