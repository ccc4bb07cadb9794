import Foundation
import QuireTestSupport
import QuireWire
import Testing

@testable import QuireServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The same core behind the real libmicrohttpd host on a loopback port.
struct MicroHTTPServerTests {
    let harness: ServerHarness
    let host: MicroHTTPServer
    let token: String
    let session: URLSession

    init() async throws {
        harness = try ServerHarness()
        token = try await harness.token("alice")
        host = try MicroHTTPServer(core: harness.server, host: "127.0.0.1", port: 0)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 40
        session = URLSession(configuration: configuration)
    }

    private func request(
        _ method: String, _ path: String, query: String = "", headers: [String: String] = [:],
        body: Data? = nil
    ) -> URLRequest {
        var request = URLRequest(url: URL(string: host.baseURL.absoluteString + path + query)!)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        return request
    }

    private func send(_ request: URLRequest) async throws -> (Int, Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, data, http)
    }

    @Test func putThenChangesOverHTTP() async throws {
        #expect(host.port > 0)
        let id = ServerHarness.uuid()
        let body = WireJSON.encode(PutNoteRequestDTO(payload: "sealed", baseVersion: nil))

        let (putStatus, putBody, putResponse) = try await send(
            request("PUT", WireRoutes.note(id), headers: ["Idempotency-Key": "c1"], body: body))
        let (status, data, _) = try await send(
            request("GET", WireRoutes.changes, query: "?limit=10"))

        #expect(putStatus == 200)
        #expect(try WireJSON.decoder().decode(PutNoteResponseDTO.self, from: putBody).version == 1)
        #expect(putResponse.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(status == 200)
        let page = try WireJSON.decoder().decode(ChangesPageDTO.self, from: data)
        #expect(page.changes.map(\.id) == [id])
        #expect(page.changes.first?.payload == "sealed")
        await host.stop()
    }

    @Test func unknownPathGetsJSONNotFound() async throws {
        let (status, data, _) = try await send(request("GET", "/v1/nowhere"))

        #expect(status == 404)
        #expect(
            try JSONDecoder().decode(ErrorResponseDTO.self, from: data).error.code == "not_found")
        await host.stop()
    }

    /// An escaped NUL ended the C string libmicrohttpd hands over, so `/metrics%00.css` was
    /// served as `/metrics` (issue 12, 9): it is kept escaped and names no route; a NUL in a
    /// query value is kept escaped too, so a cursor or id with one is invalid, never cut short.
    @Test(arguments: [("/metrics%00.css", 404), ("/v1/health%00", 404), ("/v1/notes/changes%00x", 405)])
    func anEscapedNulInThePathNamesNoRoute(_ target: String, _ status: Int) async throws {
        let answer = await onThread { [port = host.port, token] in
            LoopbackExchange.send(port: port, "GET", target, headers: ["Authorization": "Bearer \(token)"])
        }

        // The last one is a note id (`changes%00x`), which no GET route takes.
        #expect(answer?.status == status, "\(String(decoding: answer?.body ?? Data(), as: UTF8.self))")
        await host.stop()
    }

    @Test func anEscapedNulInACursorIsAnInvalidCursor() async throws {
        let answer = await onThread { [port = host.port, token] in
            LoopbackExchange.send(
                port: port, "GET", WireRoutes.changes + "?since=YzI6MDow%00junk",
                headers: ["Authorization": "Bearer \(token)"])
        }

        #expect(answer?.status == 400)
        await host.stop()
    }

    /// Every answer says its content type is the one to use (issue 12, 9).
    @Test func everyAnswerForbidsContentSniffing() async throws {
        let answers = await onThread { [port = host.port] in
            [
                LoopbackExchange.send(port: port, "GET", "/v1/health"),
                LoopbackExchange.send(port: port, "GET", "/v1/nowhere"),
            ]
        }

        #expect(answers.map { $0?.headers["x-content-type-options"] } == ["nosniff", "nosniff"])
        await host.stop()
    }

    /// The 413 comes as soon as the headers declare too much, before any of the body is read.
    /// (Over URLSession the test was flaky under load: the server closes after answering, and a
    /// client still sending its body meets a broken pipe before it reads the answer.)
    @Test func oversizeBodyGets413AndServerKeepsServing() async throws {
        let answer = await onThread { [port = host.port, token] in
            guard let socket = try? LoopbackSocket(port: port) else { return (data: Data(), closed: false) }
            socket.send(
                "PUT \(WireRoutes.note(ServerHarness.uuid())) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: Bearer \(token)\r\nIdempotency-Key: big\r\n"
                    + "Content-Length: \(WireRoutes.maxBodyBytes + 1)\r\n\r\n")
            return socket.readToEnd(timeout: .seconds(5))
        }
        let exchange = try #require(LoopbackExchange.parse(answer.data))
        let (health, _, _) = try await send(request("GET", "/v1/health"))

        #expect(exchange.status == 413)
        #expect(
            try JSONDecoder().decode(ErrorResponseDTO.self, from: exchange.body).error.code
                == "payload_too_large")
        #expect(health == 200)
        #expect(try await harness.everything(token: token).isEmpty)
        await host.stop()
    }

    @Test func chunkedUploadPastTheBodyLimitGets413AtTheLimitAndIsClosed() async throws {
        let socket = try LoopbackSocket(port: host.port)
        socket.send(
            "PUT \(WireRoutes.note(ServerHarness.uuid())) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer \(token)\r\nIdempotency-Key: big\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n")
        let chunk = String(repeating: "a", count: 65_536)

        // Exactly the limit, then one byte more, then the client pauses without ending the body:
        // the answer must come now, not when (if ever) the body ends. (Bytes sent beyond the one
        // that crossed would sit unread when the server closes, and a socket closed with unread
        // bytes resets the connection, dropping the answer: real clients see a broken pipe.)
        let answer = await onThread {
            for _ in 0..<(WireRoutes.maxBodyBytes / 65_536) { socket.send("10000\r\n\(chunk)\r\n") }
            socket.send("1\r\na\r\n")
            return socket.readToEnd(timeout: .seconds(5))
        }

        let exchange = LoopbackExchange.parse(answer.data)
        #expect(exchange?.status == 413, "answered: \(String(decoding: answer.data.prefix(200), as: UTF8.self))")
        #expect(answer.closed)
        let health = await onThread { [port = host.port] in LoopbackExchange.send(port: port, "GET", "/v1/health") }
        #expect(health?.status == 200)
        #expect(try await harness.everything(token: token).isEmpty)
        await host.stop()
    }

    @Test func stopEndsWaitingLongPollPromptly() async throws {
        let cursor = try await harness.changes(token: token).nextCursor
        let poll = Task { [session] in
            let request = request("GET", WireRoutes.changes, query: "?since=\(cursor)&wait=30")
            let (_, response) = try await session.data(for: request)
            return (response as? HTTPURLResponse)?.statusCode
        }
        try #require(await eventually(timeout: .seconds(60)) { await harness.server.notifier.waiterCount == 1 })
        let started = ContinuousClock.now

        await host.stop()

        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(try await poll.value == 200)
        await host.stop()  // a second stop does nothing
    }

    @Test func signInsFromOneLoopbackAddressAreThrottledWithRetryAfter() async throws {
        await host.stop()
        var configuration = ServerHarness.configuration
        configuration.throttle = .init(pairFreeFailures: 100, addressFreeFailures: 3, baseDelay: 60)
        let harness = try ServerHarness(configuration: configuration)
        let host = try MicroHTTPServer(core: harness.server, host: "127.0.0.1", port: 0)
        func signIn(_ name: String) async throws -> HTTPURLResponse {
            var request = URLRequest(url: host.baseURL.appendingPathComponent(WireRoutes.sessions))
            request.httpMethod = "POST"
            request.httpBody = WireJSON.encode(
                CreateSessionRequestDTO(
                    username: name, authKey: ServerHarness.authKey(name).base64EncodedString(),
                    deviceName: "test"))
            return try await send(request).2
        }

        for index in 0..<3 { #expect(try await signIn("nobody\(index)").statusCode == 401) }
        let locked = try await signIn("someone")

        #expect(locked.statusCode == 429)
        #expect(locked.value(forHTTPHeaderField: "Retry-After") == "60")
        await host.stop()
    }
}
