#if canImport(CCurl)
    import Foundation
    import QuireClient
    import QuireTestSupport
    import QuireWire
    import Testing

    @testable import QuireServer

    /// The libmicrohttpd host serving HTTPS (issue 12, item 12): the event loop, suspended
    /// long-polls, hang-up watching and the direct 413 all work through TLS, with a certificate
    /// from a throwaway CA made in the test and the device's own HTTP client (libcurl) trusting it.
    struct HTTPSHostTests {
        let harness: ServerHarness
        let root: TemporaryDirectory
        let ca: ThrowawayCA
        let host: MicroHTTPServer
        let token: String
        let transport: CurlTransport

        init() async throws {
            harness = try ServerHarness()
            token = try await harness.token("alice")
            root = try TemporaryDirectory(prefix: "quire-https-host")
            ca = try await ThrowawayCA.make(in: root.url)
            let credentials = try TLSCredentials.load(
                certificateFile: ca.serverCertificate.path, keyFile: ca.serverKey.path)
            host = try MicroHTTPServer(core: harness.server, host: "127.0.0.1", port: 0, tls: credentials)
            transport = CurlTransport(baseURL: host.baseURL, trust: ServerTrust(caFile: ca.certificate.path))
        }

        /// A 30 s long-poll through TLS, once the server holds it (its connection suspended).
        private func waitingLongPoll() async throws -> Task<TransportResponse, any Error> {
            let cursor = try await harness.changes(token: token).nextCursor
            let request = TransportRequest(
                method: "GET", path: WireRoutes.changes + "?since=\(cursor)&wait=30",
                headers: ["Authorization": "Bearer \(token)"], timeout: 40)
            let poll = Task { [transport] in try await transport.send(request) }
            try #require(await eventually(timeout: .seconds(30)) { await harness.server.notifier.waiterCount == 1 })
            return poll
        }

        @Test func servesHTTPSOnlyToAClientThatTrustsItsCA() async throws {
            defer { root.remove() }
            #expect(host.baseURL.absoluteString.hasPrefix("https://127.0.0.1:"))

            let health = try await transport.send(TransportRequest(method: "GET", path: "/v1/health", timeout: 10))
            let untrusting = CurlTransport(baseURL: host.baseURL)
            let refused = await #expect(throws: URLError.self) {
                try await untrusting.send(TransportRequest(method: "GET", path: "/v1/health", timeout: 10))
            }
            var plain = URLComponents(url: host.baseURL, resolvingAgainstBaseURL: false)!
            plain.scheme = "http"
            let plainAnswer = try? await CurlTransport(baseURL: plain.url!).send(
                TransportRequest(method: "GET", path: "/v1/health", timeout: 10))

            #expect(health.status == 200)
            #expect(refused?.code == .serverCertificateUntrusted)
            #expect(plainAnswer?.status != 200, "plain HTTP must not be served on the HTTPS port")
            await host.stop()
        }

        @Test func aLongPollWaitsSuspendedAndWakesOverTLS() async throws {
            defer { root.remove() }
            let poll = try await waitingLongPoll()

            let id = ServerHarness.uuid()
            _ = await harness.put(id, payload: "woken", base: nil, token: token)

            let answer = try await poll.value
            #expect(answer.status == 200)
            let page = try WireJSON.decoder().decode(ChangesPageDTO.self, from: answer.body)
            #expect(page.changes.map(\.id) == [id])
            await host.stop()
        }

        @Test func aLongPollWhoseClientHangsUpEndsOverTLS() async throws {
            defer { root.remove() }
            let poll = try await waitingLongPoll()

            poll.cancel()

            #expect(await eventually(timeout: .seconds(10)) { await harness.server.notifier.waiterCount == 0 })
            await host.stop()
        }

        @Test func aChunkedUploadPastTheLimitGets413ThroughTLS() async throws {
            defer { root.remove() }
            // openssl s_client -quiet sends the request, then (its input ended) keeps reading
            // until the server closes: exactly the limit and one byte more, then nothing.
            let chunk = String(repeating: "a", count: 65_536)
            var request =
                "PUT \(WireRoutes.note(ServerHarness.uuid())) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer \(token)\r\nIdempotency-Key: big\r\nTransfer-Encoding: chunked\r\n\r\n"
            for _ in 0..<(WireRoutes.maxBodyBytes / 65_536) { request += "10000\r\n\(chunk)\r\n" }
            request += "1\r\na\r\n"

            let result = try await ProcessRunner.run(
                try ThrowawayCA.opensslExecutable(),
                [
                    "s_client", "-quiet", "-connect", "127.0.0.1:\(host.port)", "-CAfile", ca.certificate.path,
                    "-verify_return_error",
                ], stdin: request, timeout: 30)

            #expect(result.stdout.hasPrefix("HTTP/1.1 413"), "answered: \(result.stdout.prefix(200)) \(result.stderr)")
            #expect(result.stdout.contains("payload_too_large"))
            #expect(try await transport.send(TransportRequest(method: "GET", path: "/v1/health")).status == 200)
            #expect(try await harness.everything(token: token).isEmpty)
            await host.stop()
        }
    }
#endif
