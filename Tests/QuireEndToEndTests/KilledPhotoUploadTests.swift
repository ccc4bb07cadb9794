import Foundation
import QuireCrypto
import QuireSQLite
import QuireTestSupport
import Testing

/// `kill -9` of `quire sync` while it uploads a photo (issue 16, "Tests and numbers"), through a
/// real `quire-server` process on loopback, and the upload's peak memory.
@Suite struct KilledPhotoUploadTests {
    /// One account's device with a trip on the server and one item: the trip's and the item's ids.
    static func device(_ root: TemporaryDirectory, _ server: ServerProcess) async throws -> (CLIDevice, String) {
        let alice = CLIDevice(root, "alice")
        try await alice.ok(
            ["register", server.url.absoluteString, "alice", "--password-stdin"], stdin: "correct horse\n")
        let (_, lunch) = try await alice.lisbonWithLunch()
        try await alice.ok("sync")
        return (alice, lunch)
    }

    /// A real JPEG of about `megabytes` MB of random pixels (incompressible, like a photo), with
    /// a camera's EXIF; its SHA-256.
    static func photo(_ url: URL, megabytes: Double) async throws -> String {
        try await TestPhotoFile.jpeg(at: url, megabytes: megabytes, location: false)
        return try SHA256Hasher.hexDigest(ofFile: url)
    }

    /// The bytes the server has confirmed of all its uploads (the photo and its thumbnail; 0
    /// before they exist), read from its database as it runs.
    static func serverOffset(_ database: SQLiteConnection) throws -> Int64 {
        try database.queryFirst("SELECT COALESCE(SUM(confirmed_offset), 0) FROM uploads") { $0.int64(0) } ?? 0
    }

    /// How many `piece`-byte PATCHes the server's uploads take, each upload on its own.
    static func pieces(_ database: SQLiteConnection, of piece: Int64) throws -> Int64 {
        try database.query("SELECT upload_length FROM uploads") { $0.int64(0) }
            .reduce(0) { $0 + ($1 + piece - 1) / piece }
    }

    /// `quire_http_requests_total` of `method` on `route` with `status`, from the server's
    /// `/metrics`.
    static func requests(_ server: ServerProcess, route: String, method: String, status: Int) async throws -> Int {
        let port = try #require(server.url.port.map(UInt16.init))
        let answer = await onThread { LoopbackExchange.send(port: port, "GET", "/metrics") }
        let text = String(decoding: try #require(answer).body, as: UTF8.self)
        let series = "quire_http_requests_total{route=\"\(route)\",method=\"\(method)\",status=\"\(status)\"} "
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(series) }) else { return 0 }
        return Int(line.dropFirst(series.count)) ?? 0
    }

    @Test func killedAtTwentyRandomPointsTheUploadResumesAndEndsAsOneIdenticalBlob() async throws {
        let root = try TemporaryDirectory(prefix: "quire-photo-kill")
        defer { root.remove() }
        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        defer { server.terminate() }
        let (alice, lunch) = try await Self.device(root, server)
        let file = root.path("big.jpg")
        let digest = try await Self.photo(file, megabytes: 50)
        let id = try await alice.ok("trip", "photo", "add", lunch, file.path, "--keep-location")
        let length = try #require(try await PhotosThroughARealServerTests.photos(alice, lunch).first?.uploadBytes)
        // 256 KiB a PATCH: about 200 of them, so each kill lands inside the upload.
        let piece: Int64 = 256 * 1024
        let environment = ["QUIRE_PHOTO_PIECE_KIB": "256"]
        let database = try SQLiteConnection(path: root.path("server.sqlite").path)
        var random = SeededRandom(seed: 1616)
        let targets = (0..<20).map { _ in Int64.random(in: 1..<length, using: &random) }.sorted()
        var killedMidUpload = 0

        for (round, target) in targets.enumerated() {
            let sync = try BackgroundProcess.start(
                try BuiltProducts.executable("quire"), ["--data-dir", alice.directory.path, "sync"],
                outputFile: root.path("sync-\(round).log"), environment: environment)
            // Wait for the upload to pass this round's point, then kill at a random moment of the
            // next PATCH (up to 20 ms later).
            let deadline = ContinuousClock.now + .seconds(60)
            while sync.isRunning, try Self.serverOffset(database) < target, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(2))
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...20, using: &random)))
            if sync.isRunning { killedMidUpload += 1 }
            await sync.kill9()
            // What the device saved is never ahead of what the server confirmed.
            let saved = try #require(try await PhotosThroughARealServerTests.photos(alice, lunch).first)
            let confirmed = try Self.serverOffset(database)
            #expect(
                (saved.uploadedBytes ?? length) <= confirmed, "round \(round): device \(saved), server \(confirmed)")
        }
        #expect(killedMidUpload >= 15, "the upload finished before most kills: \(killedMidUpload) of 20")

        try await alice.ok("sync")
        let route = "/v1/trips/{id}/uploads/{upload}"
        let created = try await Self.requests(server, route: "/v1/trips/{id}/uploads", method: "POST", status: 201)
        let patches = try await Self.requests(server, route: route, method: "PATCH", status: 204)
        // Two uploads (the photo and its thumbnail), never begun again from the start, and every
        // confirmed PATCH a new piece: exactly as many as the files have pieces, so no byte was
        // confirmed twice.
        #expect(created == 2)
        #expect(Int64(patches) == (try Self.pieces(database, of: piece)), "\(patches) PATCHes for \(length) bytes")
        #expect(try await PhotosThroughARealServerTests.photos(alice, lunch).first?.state == "shared")
        let blobs = FileManager.default.enumerator(atPath: root.path("server-blobs").path)?.allObjects
            .compactMap { $0 as? String }.filter { $0.split(separator: "/").last?.count == 32 }
        #expect(blobs?.count == 2)
        let out = root.path("back.jpg")
        try await alice.ok("trip", "photo", "get", id, "--out", out.path)
        #expect(try SHA256Hasher.hexDigest(ofFile: out) == digest)
    }

    @Test func uploadingTwoHundredMegabytesKeepsQuireUnderFiftyMegabytes() async throws {
        let root = try TemporaryDirectory(prefix: "quire-photo-memory")
        defer { root.remove() }
        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        defer { server.terminate() }
        let (alice, lunch) = try await Self.device(root, server)
        let file = root.path("huge.jpg")
        _ = try await Self.photo(file, megabytes: 200)
        let executable = try BuiltProducts.executable("quire")

        let add = try BackgroundProcess.start(
            executable,
            ["--data-dir", alice.directory.path, "trip", "photo", "add", lunch, file.path, "--keep-location"],
            outputFile: root.path("add.log"))
        let (sealing, decoding) = try await Self.peakMemory(of: add)
        let sync = try BackgroundProcess.start(
            executable, ["--data-dir", alice.directory.path, "sync"], outputFile: root.path("sync.log"))
        let (uploading, _) = try await Self.peakMemory(of: sync)

        #expect(try await PhotosThroughARealServerTests.photos(alice, lunch).first?.state == "shared", "\(sync.output)")
        #expect(sealing < 50 * 1024 * 1024, "quire trip photo add peaked at \(sealing / 1024) KiB")
        #expect(uploading < 50 * 1024 * 1024, "quire sync peaked at \(uploading / 1024) KiB")
        // quire-photo, which made the thumbnail of this 107-megapixel JPEG: far under one
        // decoded copy (320 MB), since libvips shrinks while it decodes.
        #expect(decoding > 0 && decoding < 100 * 1024 * 1024, "quire-photo peaked at \(decoding / 1024) KiB")
    }

    /// The process's VmHWM (peak resident memory) as `/proc` last showed it before it exited,
    /// and the largest of its children's (quire-photo), 0 when it started none.
    static func peakMemory(of process: BackgroundProcess) async throws -> (own: Int, children: Int) {
        let peak = try await ProcessPeakMemory.watch(pid: process.pid, while: { process.isRunning })
        #expect(peak.own > 0, "no VmHWM read")
        return peak
    }
}
