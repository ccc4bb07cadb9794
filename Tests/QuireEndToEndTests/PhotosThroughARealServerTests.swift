import Foundation
import QuireCrypto
import QuireTestSupport
import Testing

/// Trip photos (issue 16, parts 3 to 6) between `quire` devices of three accounts sharing a trip,
/// through a real `quire-server` process on loopback, with real JPEGs: an owner adds a photo, its
/// location is removed unless kept, companions see it (and its thumbnail, fetched by their sync)
/// once its upload is complete and download it; a viewer's photo is refused and kept; nobody
/// outside the trip can reach the upload; a damaged download is refused.
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

    /// A real JPEG of about `megabytes` MB named `name` in the setup's folder, with a camera's
    /// EXIF and, when `location`, a GPS position (``TestPhotoFile``); its bytes.
    static func photo(_ setup: Setup, _ name: String, megabytes: Double, location: Bool = false) async throws
        -> (url: URL, bytes: Data)
    {
        let url = setup.root.path(name)
        try await TestPhotoFile.jpeg(at: url, megabytes: megabytes, location: location)
        return (url, try Data(contentsOf: url))
    }

    /// `quire trip photo get PHOTO --out FILE [--thumbnail]` into a new file; its URL.
    static func get(_ device: CLIDevice, _ setup: Setup, _ id: String, thumbnail: Bool = false) async throws -> URL {
        let out = setup.root.path("got-\(UUID().uuidString).jpg")
        try await device.ok(
            ["trip", "photo", "get", String(id.prefix(8)), "--out", out.path] + (thumbnail ? ["--thumbnail"] : []))
        return out
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

    @Test func aCompanionSeesThePhotoOnlyOnceItIsUploadedAndDownloadsItWithoutItsLocation() async throws {
        let setup = try await Self.sharedSetup()
        defer { setup.tearDown() }
        let (file, bytes) = try await Self.photo(setup, "beach.jpg", megabytes: 3, location: true)
        #expect(try await TestPhotoFile.locationTags(of: file).contains("GPS:GPSLatitude"))

        let id = try await setup.alice.ok("trip", "photo", "add", setup.lunch, file.path)
        let queued = try await Self.photos(setup.alice, setup.lunch)
        #expect(queued.map(\.id) == [id] && queued.first?.state == "queued")
        #expect(queued.first?.mediaType == "image/jpeg" && (queued.first?.size ?? 0) > 1_000_000)
        #expect(try await TestPhotoFile.locationTags(of: file).contains("GPS:GPSLatitude"), "the source was changed")
        let status = try await setup.alice.ok("status")
        #expect(status.contains("uploading 1 photo, 0.0 of "), "\(status)")
        let statusJSON = try #require(
            try JSONSerialization.jsonObject(with: Data(try await setup.alice.ok("status", "--json").utf8))
                as? [String: Any])
        #expect((statusJSON["photos"] as? [String: Any])?["uploading"] as? Int == 1)
        // Nothing is on the server yet: a companion's sync brings no photo.
        try await setup.bob.ok("sync")
        #expect(try await Self.photos(setup.bob, setup.lunch).isEmpty)

        let synced = try await setup.alice.ok("sync")
        #expect(synced.contains("photos: 1 uploaded") && !synced.contains("thumbnail"), "\(synced)")
        #expect(try await Self.photos(setup.alice, setup.lunch).first?.state == "shared")
        #expect(!(try await setup.alice.ok("status")).contains("uploading"))

        var downloads: [Data] = []
        for companion in [setup.bob, setup.carol] {
            let synced = try await companion.ok("sync")
            #expect(synced.contains("photos: 1 thumbnail(s) received"), "\(synced)")
            let seen = try await Self.photos(companion, setup.lunch)
            #expect(seen.map(\.id) == [id] && seen.first?.state == "shared" && seen.first?.hasThumbnail == true)
            let out = try await Self.get(companion, setup, id)
            // Decrypted on the companion's device: no location, by exiftool's reading, and the
            // camera's other tags kept.
            #expect(try await TestPhotoFile.locationTags(of: out) == [])
            #expect(try await TestPhotoFile.tags(of: out)["IFD0:Make"] == TestPhotoFile.make)
            downloads.append(try Data(contentsOf: out))
        }
        #expect(downloads.count == 2 && downloads[0] == downloads[1] && downloads[0] != bytes)
        // The server holds two blobs, the photo and its thumbnail: ciphertext, with none of the
        // photo's bytes in them.
        let blobs = Self.blobs(setup)
        #expect(blobs.count == 2)
        for blob in blobs {
            let stored = try Data(contentsOf: blob)
            #expect(stored.range(of: downloads[0].dropFirst(1000).prefix(32)) == nil)
        }

        // Removing it is an op like any: gone on every device after their syncs.
        try await setup.alice.ok("trip", "photo", "rm", String(id.prefix(8)))
        #expect(try await Self.photos(setup.alice, setup.lunch).first?.state == "removing")
        try await setup.alice.ok("sync")
        try await setup.bob.ok("sync")
        #expect(try await Self.photos(setup.bob, setup.lunch).isEmpty)
        // Once the server took the removal, the same sync terminated both uploads.
        #expect(Self.blobs(setup).isEmpty)
    }

    @Test func aPhotoACompanionRemovesLeavesTheServerAtItsUploadersNextSync() async throws {
        let setup = try await Self.sharedSetup()
        defer { setup.tearDown() }
        let (file, _) = try await Self.photo(setup, "beach.jpg", megabytes: 0.3)
        let id = try await setup.alice.ok("trip", "photo", "add", setup.lunch, file.path)
        try await setup.alice.ok("sync")
        try await setup.bob.ok("sync")
        #expect(Self.blobs(setup).count == 2)

        try await setup.bob.ok("trip", "photo", "rm", String(id.prefix(8)))
        try await setup.bob.ok("sync")
        // Only alice's account may end alice's uploads: they wait for her device.
        #expect(Self.blobs(setup).count == 2)
        try await setup.alice.ok("sync")

        #expect(Self.blobs(setup).isEmpty)
        #expect(try await Self.photos(setup.alice, setup.lunch).isEmpty)
        #expect(!(try await setup.alice.ok("status")).contains("uploading"))
    }

    @Test func aKeptLocationTravelsWithThePhotoByteForByte() async throws {
        let setup = try await Self.sharedSetup()
        defer { setup.tearDown() }
        let (file, bytes) = try await Self.photo(setup, "summit.jpg", megabytes: 0.5, location: true)

        let id = try await setup.alice.ok("trip", "photo", "add", setup.lunch, file.path, "--keep-location")
        try await setup.alice.ok("sync")
        try await setup.bob.ok("sync")
        let out = try await Self.get(setup.bob, setup, id)

        #expect(try Data(contentsOf: out) == bytes)
        #expect(try await TestPhotoFile.locationTags(of: out).contains("GPS:GPSLatitude"))
        // The thumbnail never carries metadata, location or not.
        #expect(
            try await TestPhotoFile.locationTags(of: try await Self.get(setup.bob, setup, id, thumbnail: true)) == [])
    }

    @Test func aCompanionsSyncFetchesTheThumbnailSoItShowsOffline() async throws {
        let setup = try await Self.sharedSetup()
        defer { setup.tearDown() }
        let (file, _) = try await Self.photo(setup, "wide.jpg", megabytes: 1)
        let id = try await setup.alice.ok("trip", "photo", "add", setup.lunch, file.path)
        try await setup.alice.ok("sync")
        try await setup.bob.ok("sync")
        // A second sync has nothing more to fetch.
        #expect(!(try await setup.bob.ok("sync")).contains("thumbnail"))

        setup.server.terminate()
        let thumbnail = try await Self.get(setup.bob, setup, id, thumbnail: true)
        let tags = try await TestPhotoFile.tags(of: thumbnail)
        let width = Int(tags["File:ImageWidth"] ?? "") ?? 0
        let height = Int(tags["File:ImageHeight"] ?? "") ?? 0
        #expect(tags["File:MIMEType"] == "image/jpeg")
        #expect(max(width, height) == 320 && width > height, "\(width) x \(height)")
        // The full photo was not fetched: offline, it cannot be.
        let full = try await setup.bob.run(
            "trip", "photo", "get", String(id.prefix(8)), "--out", setup.root.path("full.jpg").path)
        #expect(full.exitCode != 0)
    }

    @Test func aFileThatIsNotAPhotoIsRefusedWithWhatToDoAndNothingQueued() async throws {
        let setup = try await Self.sharedSetup()
        defer { setup.tearDown() }
        let notes = setup.root.path("notes.jpg")
        try Data("packing list: socks, charger\n".utf8).write(to: notes)

        let refused = try await setup.alice.run("trip", "photo", "add", setup.lunch, notes.path)

        #expect(refused.exitCode == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("is not an image"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Use a JPEG, PNG, HEIC or WebP photo"), "\(refused.stderr)")
        #expect(try await Self.photos(setup.alice, setup.lunch).isEmpty)
    }

    @Test func aDecoderThatCrashesEndsOnlyItsOwnProcessAndNothingIsQueued() async throws {
        let setup = try await Self.sharedSetup()
        defer { setup.tearDown() }
        let (file, _) = try await Self.photo(setup, "beach.jpg", megabytes: 0.1)
        // A quire-photo that dies as a decoder hit by a hostile file would (SIGSEGV).
        let crashing = setup.root.path("crashing-quire-photo")
        try Data("#!/bin/sh\necho 'decoding...' >&2\nkill -SEGV $$\n".utf8).write(to: crashing)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: crashing.path)

        let crashed = try await setup.alice.run(
            "trip", "photo", "add", setup.lunch, file.path, environment: ["QUIRE_PHOTO": crashing.path])

        #expect(crashed.exitCode == 65, "\(crashed.stderr)")
        #expect(crashed.stderr.contains("quire-photo stopped (exit status 139)"), "\(crashed.stderr)")
        #expect(crashed.stderr.contains("nothing was queued"), "\(crashed.stderr)")
        #expect(try await Self.photos(setup.alice, setup.lunch).isEmpty)
        let media = setup.alice.directory.appendingPathComponent("media")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: media.path)) ?? []).isEmpty)
        // The device is fine: the real helper prepares the same photo.
        #expect(!(try await setup.alice.ok("trip", "photo", "add", setup.lunch, file.path)).isEmpty)
    }

    @Test func quireWatchUploadsAPhotoAddedWhileItRuns() async throws {
        let setup = try await Self.sharedSetup()
        defer { setup.tearDown() }
        let watch = try BackgroundQuire.start(setup.alice, "watch")
        defer { watch.stop() }
        let (file, _) = try await Self.photo(setup, "beach.jpg", megabytes: 0.5)

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
        let (file, _) = try await Self.photo(setup, "selfie.jpg", megabytes: 0.1)
        // A viewer's photo is refused at once, before anything is sealed or queued.
        let viewing = try await setup.carol.run("trip", "photo", "add", setup.lunch, file.path, "--keep-location")
        #expect(viewing.exitCode == 77, "\(viewing.stderr)")
        #expect(try await Self.photos(setup.carol, setup.lunch).isEmpty)

        // An editor made a viewer after adding a photo offline: the server refuses it, and the
        // photo is kept on the device, saying why.
        let id = try await setup.bob.ok("trip", "photo", "add", setup.lunch, file.path, "--keep-location")
        try await setup.alice.ok("trip", "role", setup.trip, "bob", "--role", "viewer")
        let synced = try await setup.bob.run("sync")
        let kept = try await Self.photos(setup.bob, setup.lunch)

        #expect(synced.exitCode == 75, "\(synced.stderr)")
        #expect(synced.stderr.contains("1 photo(s) were refused"), "\(synced.stderr)")
        #expect(kept.map(\.id) == [id] && kept.first?.state == "failed")
        #expect(
            kept.first?.error?.contains("read it but not change it") == true, "\(String(describing: kept.first?.error))"
        )
        #expect(try await setup.bob.ok("status").contains("Photos refused: 1"))
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
        let (file, _) = try await Self.photo(setup, "beach.jpg", megabytes: 0.2)
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
        // More than five 64 KiB chunks; kept as it is, so the download is byte for byte.
        let (file, bytes) = try await Self.photo(setup, "beach.jpg", megabytes: 0.4)
        let id = try await setup.alice.ok("trip", "photo", "add", setup.lunch, file.path, "--keep-location")
        try await setup.alice.ok("sync")
        try await setup.bob.ok("sync")
        // The photo's blob is the larger of the two (the other is its thumbnail).
        let blob = try #require(
            Self.blobs(setup).max { (try? Data(contentsOf: $0).count) ?? 0 < (try? Data(contentsOf: $1).count) ?? 0 })
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
            let kept = ((try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? [])
                .filter { $0.hasPrefix(blob.lastPathComponent) }
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
    var hasThumbnail: Bool
    var mediaType: String?
    var size: Int64?
    var uploadBytes: Int64?
    var uploadedBytes: Int64?
    var error: String?
}
