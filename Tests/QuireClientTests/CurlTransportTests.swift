#if canImport(CCurl)
    import Foundation
    import QuireClient
    import QuireTestSupport
    import QuireWire
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// The device's HTTP client on Linux, against a real `quire-server` on loopback: methods,
    /// bodies, headers and statuses arrive as sent, and failures are the URLErrors the rest of
    /// the client classifies (no connection, timeout, cancellation).
    @Suite struct CurlTransportTests {
        let root: TemporaryDirectory
        let server: ServerProcess
        let token: String
        let transport: CurlTransport

        init() async throws {
            root = try TemporaryDirectory(prefix: "quire-curl")
            token = try await ServerProcess.addAccount("ann", databaseFile: root.path("server.sqlite"))
            server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
            transport = CurlTransport(baseURL: server.url)
        }

        private func authorized(
            _ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:],
            timeout: TimeInterval = 10
        ) -> TransportRequest {
            TransportRequest(
                method: method, path: path,
                headers: headers.merging(["Authorization": "Bearer \(token)"]) { first, _ in first }, body: body,
                timeout: timeout)
        }

        @Test func getAnswersStatusLowercasedHeadersAndBody() async throws {
            defer { root.remove() }
            let response = try await transport.send(TransportRequest(method: "GET", path: "/v1/health", timeout: 5))

            #expect(response.status == 200)
            #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
            #expect(String(decoding: response.body, as: UTF8.self).contains("\"ok\""))
        }

        @Test func headAnswersItsStatusAndHeadersWithoutWaitingForABody() async throws {
            defer { root.remove() }
            // A tus HEAD (the photo queue's offset) names a Content-Length with no body after it.
            let response = try await transport.send(TransportRequest(method: "HEAD", path: "/v1/health", timeout: 3))

            #expect((200..<500).contains(response.status))
            #expect(response.body.isEmpty)
        }

        @Test func putWithABodyAndHeadersThenDeleteWithout() async throws {
            defer { root.remove() }
            let id = UUID().uuidString.lowercased()
            let body = WireJSON.encode(PutNoteRequestDTO(payload: "c2VhbGVk", baseVersion: nil))
            let put = try await transport.send(
                authorized(
                    "PUT", WireRoutes.note(id), body: body,
                    headers: ["Content-Type": "application/json", WireRoutes.idempotencyKeyHeader: "change-1"]))
            #expect(put.status == 200, "\(String(decoding: put.body, as: UTF8.self))")
            let answer = try WireJSON.decoder().decode(PutNoteResponseDTO.self, from: put.body)
            #expect(answer.version == 1)

            let again = try await transport.send(
                authorized(
                    "PUT", WireRoutes.note(id), body: body,
                    headers: ["Content-Type": "application/json", WireRoutes.idempotencyKeyHeader: "change-1"]))
            #expect(again.headers["idempotent-replayed"] == "true")

            let delete = try await transport.send(
                authorized(
                    "DELETE", WireRoutes.note(id) + "?baseVersion=1",
                    headers: [WireRoutes.idempotencyKeyHeader: "change-2"]))
            #expect(delete.status == 204)
            let page = try await transport.send(authorized("GET", WireRoutes.changes + "?limit=10"))
            #expect(try WireJSON.decoder().decode(ChangesPageDTO.self, from: page.body).changes.isEmpty)
        }

        @Test func nothingListeningIsCannotConnectToHost() async throws {
            defer { root.remove() }
            await server.stop()
            await #expect {
                _ = try await transport.send(TransportRequest(method: "GET", path: "/v1/health", timeout: 5))
            } throws: { ($0 as? URLError)?.code == .cannotConnectToHost }
        }

        @Test func anAnswerLaterThanTheTimeoutIsTimedOut() async throws {
            defer { root.remove() }
            let started = Date()
            await #expect {
                _ = try await transport.send(authorized("GET", WireRoutes.changes + "?limit=1&wait=10", timeout: 0.5))
            } throws: { ($0 as? URLError)?.code == .timedOut }
            #expect(Date().timeIntervalSince(started) < 5)
        }

        @Test func sequentialRequestsReuseOneConnection() async throws {
            defer { root.remove() }
            let port = try #require(server.url.port.map(UInt16.init))
            let proxy = try LossyLoopbackProxy(upstreamPort: port, seed: 1)
            defer { proxy.stop() }
            let counted = CurlTransport(baseURL: proxy.url)

            // GETs and PUTs with bodies, alternating.
            for round in 0..<20 {
                let request =
                    round.isMultiple(of: 2)
                    ? authorized("GET", "/v1/health")
                    : authorized(
                        "PUT", WireRoutes.note(UUID().uuidString.lowercased()),
                        body: WireJSON.encode(PutNoteRequestDTO(payload: "c2VhbGVk", baseVersion: nil)),
                        headers: ["Content-Type": "application/json", WireRoutes.idempotencyKeyHeader: "put-\(round)"])
                let answer = try await counted.send(request)
                #expect(answer.status == 200, "round \(round): \(String(decoding: answer.body, as: UTF8.self))")
            }

            // Twenty requests, one after another, over one kept-alive connection.
            #expect(proxy.counts.exchanges == 20, "\(proxy.counts)")
            #expect(proxy.counts.connections == 1, "\(proxy.counts)")
        }

        @Test func aKeptConnectionTheServerClosedMeanwhileIsReplacedUnseen() async throws {
            defer { root.remove() }
            // A server that closes a connection silent for a second.
            let strict = try await ServerProcess.start(
                databaseFile: root.path("strict.sqlite"), extraArguments: ["--idle-timeout", "1"])
            defer { strict.terminate() }
            let port = try #require(strict.url.port.map(UInt16.init))
            let proxy = try LossyLoopbackProxy(upstreamPort: port, seed: 2)
            defer { proxy.stop() }
            let client = CurlTransport(baseURL: proxy.url)

            for round in 0..<3 {
                let answer = try await client.send(TransportRequest(method: "GET", path: "/v1/health", timeout: 5))
                #expect(answer.status == 200, "round \(round)")
                try await Task.sleep(for: .milliseconds(2_500))
            }

            // Each request found its kept connection closed by the server and opened another.
            #expect(proxy.counts.exchanges == 3 && proxy.counts.connections == 3, "\(proxy.counts)")
        }

        @Test func cancellingTheCallerEndsAWaitingLongPoll() async throws {
            defer { root.remove() }
            let poll = Task {
                try await transport.send(authorized("GET", WireRoutes.changes + "?limit=1&wait=20", timeout: 30))
            }
            // The server holds it: its waiter gauge says so.
            let client = transport
            #expect(
                await eventually(timeout: 10) {
                    let metrics = try? await client.send(
                        TransportRequest(method: "GET", path: "/metrics", timeout: 5))
                    return metrics.map { String(decoding: $0.body, as: UTF8.self).contains("quire_longpoll_waiters 1") }
                        ?? false
                })
            let started = Date()
            poll.cancel()

            await #expect {
                _ = try await poll.value
            } throws: { ($0 as? URLError)?.code == .cancelled }
            #expect(Date().timeIntervalSince(started) < 5)
        }
    }
#endif
