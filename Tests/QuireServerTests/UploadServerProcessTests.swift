import Foundation
import QuireCrypto
import QuireTestSupport
import QuireWire
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Uploads to a real `quire-server` over raw loopback sockets. `kill -9` in the middle of PATCHes: after each restart on the same
/// database and blob directory, HEAD's offset is never ahead of the bytes the blob holds (every
/// byte before it is the one sent), and the upload goes on from there to a byte-identical blob.
final class UploadServerProcessTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "quire-upload-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// How one PATCH ends: answered, or the server killed with the body half sent, or killed
    /// `after` the whole body was sent (while it may be writing, syncing or confirming).
    enum Ending {
        case answered
        case killedMidBody
        case killedAfterBody(Duration)
    }

    private func start(chunkMiB: Int = 1, extra: [String] = []) async throws -> ServerProcess {
        try await ServerProcess.start(
            databaseFile: directory.appendingPathComponent("server.sqlite"),
            extraArguments: [
                "--blobs", directory.appendingPathComponent("blobs").path, "--min-kdf-iterations", "1000",
                "--auth-hash-iterations", "1000", "--upload-chunk-mib", String(chunkMiB),
            ] + extra)
    }

    private static func port(_ server: ServerProcess) throws -> UInt16 {
        try #require(server.url.port.map(UInt16.init))
    }

    private static func json(
        _ port: UInt16, _ method: String, _ path: String, _ body: [String: Any], token: String? = nil
    )
        async throws -> [String: Any]
    {
        var headers = ["Content-Type": "application/json"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        let data = try JSONSerialization.data(withJSONObject: body)
        let sent = headers
        let answer = await onThread { LoopbackExchange.send(port: port, method, path, headers: sent, body: data) }
        let exchange = try #require(answer, "\(method) \(path) got no answer")
        try #require((200..<300).contains(exchange.status), "\(method) \(path): \(exchange.status)")
        return (try? JSONSerialization.jsonObject(with: exchange.body) as? [String: Any]) ?? [:]
    }

    /// Sends one PATCH of `bytes` at `offset` over a raw socket and ends it as `ending` says;
    /// returns the answer when it was answered.
    private static func patch(
        port: UInt16, _ path: String, token: String, offset: Int, _ bytes: Data, ending: Ending,
        kill: @Sendable () async -> Void
    ) async throws -> LoopbackExchange? {
        let socket = try LoopbackSocket(port: port)
        let head =
            "PATCH \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nTus-Resumable: 1.0.0\r\n"
            + "Authorization: Bearer \(token)\r\nContent-Type: \(WireRoutes.uploadContentType)\r\n"
            + "Upload-Offset: \(offset)\r\nContent-Length: \(bytes.count)\r\n\r\n"
        try #require(socket.send(head))
        switch ending {
        case .answered:
            try #require(sendAll(socket, bytes))
            let (data, _) = await onThread { socket.readToEnd(timeout: .seconds(20)) }
            return LoopbackExchange.parse(data)
        case .killedMidBody:
            try #require(sendAll(socket, bytes.prefix(bytes.count / 2)))
            try await Task.sleep(for: .milliseconds(50))
            await kill()
            return nil
        case .killedAfterBody(let pause):
            try #require(sendAll(socket, bytes))
            try await Task.sleep(for: pause)
            await kill()
            return nil
        }
    }

    private static func sendAll(_ socket: LoopbackSocket, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let count = Glibc.send(
                    socket.descriptor, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if count <= 0 { return false }
                sent += count
            }
            return true
        }
    }

    private func blob(_ id: String) -> Data {
        FileManager.default.contents(
            atPath: directory.appendingPathComponent("blobs/\(id.prefix(2))/\(id)").path) ?? Data()
    }

    /// A new account's token and a trip it owns, through the server's routes.
    private static func account(_ port: UInt16) async throws -> (token: String, trip: String) {
        let name = "u" + UUID().uuidString.prefix(8).lowercased()
        let authKey = Data(SHA256Digest.hash(Data(name.utf8))).base64EncodedString()
        _ = try await json(
            port, "POST", WireRoutes.accounts,
            [
                "username": name, "authKey": authKey,
                "kdf": [
                    "algorithm": "pbkdf2-sha256", "salt": Data(count: 16).base64EncodedString(), "iterations": 1000,
                ],
                "wrappedNotesKey": Data(count: 60).base64EncodedString(),
            ])
        let session = try await json(
            port, "POST", WireRoutes.sessions, ["username": name, "authKey": authKey, "deviceName": "test"])
        let token = try #require(session["accessToken"] as? String)
        let trip = UUID().uuidString.lowercased()
        _ = try await json(
            port, "PUT", WireRoutes.trip(trip), ["wrappedKey": Data(count: 60).base64EncodedString()], token: token)
        return (token, trip)
    }

    /// The host reads an upload's PATCH body up to `--upload-chunk-mib`, past the 4 MiB of the
    /// other routes, and refuses a larger one before reading it.
    @Test func theHostTakesAPatchUpToTheChunkLimitAndNoMore() async throws {
        let server = try await start(chunkMiB: 6)
        defer { server.terminate() }
        let port = try Self.port(server)
        let (token, trip) = try await Self.account(port)
        let created = await onThread {
            LoopbackExchange.send(
                port: port, "POST", WireRoutes.tripUploads(trip),
                headers: ["Authorization": "Bearer \(token)", "Tus-Resumable": "1.0.0", "Upload-Length": "\(20 << 20)"])
        }
        let location = try #require(created?.headers["location"])
        let large = SecureRandom.bytes(5 << 20 + 1)

        let stored = try await Self.patch(
            port: port, location, token: token, offset: 0, large, ending: .answered, kill: {})
        // Refused on its headers, before any of the body is read.
        let socket = try LoopbackSocket(port: port)
        try #require(
            socket.send(
                "PATCH \(location) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nTus-Resumable: 1.0.0\r\n"
                    + "Authorization: Bearer \(token)\r\nContent-Type: \(WireRoutes.uploadContentType)\r\n"
                    + "Upload-Offset: \(large.count)\r\nContent-Length: \((6 << 20) + 1)\r\n\r\n"))
        let refused = LoopbackExchange.parse(await onThread { socket.readToEnd(timeout: .seconds(10)) }.data)

        #expect(stored?.status == 204)
        #expect(stored?.headers["upload-offset"] == String(large.count))
        #expect(refused?.status == 413)
        #expect(refused.map { String(decoding: $0.body, as: UTF8.self) }?.contains("several PATCHes") == true)
    }

    /// A new upload of `length` bytes; its path.
    private static func newUpload(_ port: UInt16, token: String, trip: String, length: Int) async throws -> String {
        let created = await onThread {
            LoopbackExchange.send(
                port: port, "POST", WireRoutes.tripUploads(trip),
                headers: ["Authorization": "Bearer \(token)", "Tus-Resumable": "1.0.0", "Upload-Length": "\(length)"])
        }
        return try #require(created?.headers["location"])
    }

    /// Sends a PATCH of `pieces` pieces of `piece` bytes, one every `pause`, then reads the
    /// answer (nil when the server closed the connection without one).
    private static func slowPatch(
        port: UInt16, _ path: String, token: String, piece: Int, pieces: Int, pause: Duration
    ) async throws -> LoopbackExchange? {
        let socket = try LoopbackSocket(port: port)
        _ = socket.send(
            "PATCH \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nTus-Resumable: 1.0.0\r\n"
                + "Authorization: Bearer \(token)\r\nContent-Type: \(WireRoutes.uploadContentType)\r\n"
                + "Upload-Offset: 0\r\nContent-Length: \(piece * pieces)\r\n\r\n")
        for _ in 0..<pieces {
            try await Task.sleep(for: pause)
            guard sendAll(socket, Data(repeating: 7, count: piece)) else { break }
        }
        return LoopbackExchange.parse(await onThread { socket.readToEnd(timeout: .seconds(5)) }.data)
    }

    /// An upload's PATCH earns time past `--request-deadline` while its body arrives at 16 KiB/s
    /// or faster; one trickling slower is still closed at the deadline.
    @Test func aSteadyPatchOutlivesTheRequestDeadlineAndATrickleDoesNot() async throws {
        let server = try await start(extra: ["--request-deadline", "1"])
        defer { server.terminate() }
        let port = try Self.port(server)
        let (token, trip) = try await Self.account(port)
        let steady = try await Self.newUpload(port, token: token, trip: trip, length: 16 * 16_384)
        let trickle = try await Self.newUpload(port, token: token, trip: trip, length: 15 * 100)

        // 2.4 s at 160 KiB/s, and 3 s at 500 bytes/s, against a deadline of 1 s.
        let steadyAnswer = try await Self.slowPatch(
            port: port, steady, token: token, piece: 16_384, pieces: 16, pause: .milliseconds(150))
        let trickleAnswer = try await Self.slowPatch(
            port: port, trickle, token: token, piece: 100, pieces: 15, pause: .milliseconds(200))

        #expect(steadyAnswer?.status == 204)
        #expect(steadyAnswer?.headers["upload-offset"] == String(16 * 16_384))
        #expect(trickleAnswer?.status != 204)
    }

    @Test func aServerKilledMidPatchNeverConfirmsMoreThanItKept() async throws {
        var server = try await start()
        defer { server.terminate() }
        var port = try Self.port(server)
        let (token, trip) = try await Self.account(port)
        let data = SecureRandom.bytes(7 * 1024 * 1024 + 777)
        let first = port
        let created = await onThread {
            LoopbackExchange.send(
                port: first, "POST", WireRoutes.tripUploads(trip),
                headers: [
                    "Authorization": "Bearer \(token)", "Tus-Resumable": "1.0.0", "Upload-Length": "\(data.count)",
                ])
        }
        let location = try #require(created?.headers["location"])
        let id = String(location.split(separator: "/").last ?? "")

        let endings: [Ending] = [
            .answered, .killedMidBody, .killedAfterBody(.zero), .killedAfterBody(.milliseconds(3)),
            .killedAfterBody(.milliseconds(15)), .answered, .killedAfterBody(.milliseconds(40)),
        ]
        var confirmed = 0
        var kills = 0
        var round = 0
        // Bounded: every few rounds one is answered and moves the offset on.
        while confirmed < data.count, round < 60 {
            let end = min(data.count, confirmed + 1024 * 1024)
            let ending = endings[round % endings.count]
            round += 1
            let running = server
            let answer = try await Self.patch(
                port: port, location, token: token, offset: confirmed, Data(data[confirmed..<end]), ending: ending
            ) { await running.kill9() }
            if case .answered = ending {
                try #require(answer?.status == 204, "PATCH answered \(answer?.status ?? 0)")
                try #require(answer?.headers["upload-offset"] == String(end))
                confirmed = end
                continue
            }
            kills += 1
            server = try await start()
            port = try Self.port(server)
            let restarted = port
            let head = await onThread {
                LoopbackExchange.send(
                    port: restarted, "HEAD", location,
                    headers: ["Authorization": "Bearer \(token)", "Tus-Resumable": "1.0.0"])
            }
            let offset = try #require(head?.headers["upload-offset"].flatMap { Int($0) })
            let kept = blob(id)
            // Never ahead: every confirmed byte is in the blob, and is the byte sent.
            try #require(kept.count >= offset, "HEAD answers \(offset) but the blob holds \(kept.count) bytes")
            try #require(kept.prefix(offset) == data.prefix(offset), "the confirmed bytes are not the ones sent")
            #expect(offset == confirmed || offset == end)
            if case .killedMidBody = ending { #expect(offset == confirmed) }
            confirmed = offset
        }

        #expect(confirmed == data.count)
        #expect(kills >= 4)
        #expect(SHA256Digest.hex(blob(id)) == SHA256Digest.hex(data))
    }
}
