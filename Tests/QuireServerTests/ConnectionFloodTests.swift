import Foundation
import QuireTestSupport
import QuireWire
import Testing

@testable import QuireServer

/// One address opens hundreds of slow (slowloris: a header line now and then, never the end) and
/// silent connections to the real libmicrohttpd host; another client's health probe and note
/// PUT must still answer promptly (issue 12, availability 1).
struct ConnectionFloodTests {
    static let attacker = "127.0.0.2"

    /// Opens `count` connections from the attacker; slow ones send the start of a request.
    static func flood(port: UInt16, slow: Int, silent: Int) -> [LoopbackSocket] {
        var sockets: [LoopbackSocket] = []
        for index in 0..<(slow + silent) {
            guard let socket = try? LoopbackSocket(port: port, source: attacker) else { continue }
            if index < slow { socket.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
            sockets.append(socket)
        }
        return sockets
    }

    /// Probes health and a note PUT one after the other for `duration`; returns each probe's
    /// time, infinity for one that failed or answered the wrong status.
    static func probe(port: UInt16, token: String, for duration: Duration) -> [Duration] {
        var times: [Duration] = []
        let end = ContinuousClock.now + duration
        var index = 0
        while ContinuousClock.now < end {
            let started = ContinuousClock.now
            let ok: Bool
            if index % 2 == 0 {
                ok = LoopbackExchange.send(port: port, "GET", "/v1/health", timeout: .seconds(2))?.status == 200
            } else {
                let body = WireJSON.encode(PutNoteRequestDTO(payload: "sealed", baseVersion: nil))
                ok =
                    LoopbackExchange.send(
                        port: port, "PUT", WireRoutes.note(ServerHarness.uuid()),
                        headers: [
                            "Authorization": "Bearer \(token)", "Idempotency-Key": UUID().uuidString,
                            "Content-Type": "application/json",
                        ], body: body, timeout: .seconds(2))?.status == 200
            }
            times.append(ok ? ContinuousClock.now - started : .seconds(1_000_000))
            index += 1
        }
        return times
    }

    static func p99(_ times: [Duration]) -> Duration {
        let sorted = times.sorted()
        return sorted[max(0, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    }

    /// Keeps the slow connections dripping a header line every `interval` until stopped.
    final class Drip: @unchecked Sendable {
        // @unchecked Sendable: `running` is read by the drip thread and set once by the test.
        private let lock = NSLock()
        private var running = true

        init(_ sockets: [LoopbackSocket], every interval: TimeInterval) {
            Thread.detachNewThread { [self] in
                var line = 0
                while lock.withLock({ running }) {
                    Thread.sleep(forTimeInterval: interval)
                    line += 1
                    for socket in sockets { socket.send("X-Drip-\(line): x\r\n") }
                }
            }
        }

        func stop() { lock.withLock { running = false } }
    }

    /// With the default per-address cap, and with none (the event loop alone holds them all).
    @Test(arguments: [MicroHTTPLimits().connectionsPerAddress, 0])
    func healthAndPutStayPromptWhileOneAddressHoldsHundredsOfSlowAndSilentConnections(
        perAddress: Int
    ) async throws {
        let harness = try ServerHarness()
        let token = try await harness.token("alice")
        let host = try MicroHTTPServer(
            core: harness.server, host: "127.0.0.1", port: 0,
            limits: MicroHTTPLimits(connectionsPerAddress: perAddress))
        let port = host.port

        let sockets = Self.flood(port: port, slow: 300, silent: 200)
        let slow = Array(sockets.prefix(300))
        let drip = Drip(slow, every: 0.5)
        if perAddress == 0 {
            #expect(await eventually(timeout: .seconds(5)) { host.openConnections == 500 })
        }
        let times = await onThread { Self.probe(port: port, token: token, for: .seconds(3)) }
        drip.stop()

        let failed = times.filter { $0 > .seconds(1000) }.count
        #expect(failed == 0, "\(failed) of \(times.count) probes failed")
        #expect(times.count >= 20)
        #expect(Self.p99(times) < .milliseconds(100), "p99 \(Self.p99(times)) over \(times.count) probes")
        withExtendedLifetime(sockets) {}
        await host.stop()
    }

    @Test func connectionsPastTheAddressCapAreClosedWhileAnotherAddressIsServed() async throws {
        let harness = try ServerHarness()
        let host = try MicroHTTPServer(
            core: harness.server, host: "127.0.0.1", port: 0,
            limits: MicroHTTPLimits(connectionsPerAddress: 10))
        let port = host.port

        let sockets = Self.flood(port: port, slow: 0, silent: 15)
        let ends = await onThread { sockets.map { $0.readToEnd(timeout: .milliseconds(300)).closed } }
        let health = await onThread { LoopbackExchange.send(port: port, "GET", "/v1/health") }

        #expect(ends.filter { !$0 }.count == 10, "open: \(ends.map { $0 ? "closed" : "open" })")
        #expect(ends.suffix(5).allSatisfy { $0 })
        #expect(health?.status == 200)
        await host.stop()
    }

    @Test func aRequestThatHasNotArrivedByItsDeadlineIsClosed() async throws {
        let harness = try ServerHarness()
        let host = try MicroHTTPServer(
            core: harness.server, host: "127.0.0.1", port: 0,
            limits: MicroHTTPLimits(requestDeadlineSeconds: 1, idleTimeoutSeconds: 60))
        let port = host.port
        // Headers a line at a time, never the blank line; a body a line at a time, never whole.
        let slowHeaders = try LoopbackSocket(port: port, source: Self.attacker)
        slowHeaders.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        let slowBody = try LoopbackSocket(port: port, source: Self.attacker)
        slowBody.send("PUT /v1/notes/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n")
        let silent = try LoopbackSocket(port: port, source: Self.attacker)
        let drip = Drip([slowHeaders, slowBody], every: 0.2)
        let started = ContinuousClock.now

        let ends = await onThread {
            [slowHeaders, slowBody, silent].map { $0.readToEnd(timeout: .seconds(4)).closed }
        }
        drip.stop()

        #expect(ends == [true, true, true], "still open past the 1 s deadline (headers, body, silent): \(ends)")
        #expect(ContinuousClock.now - started < .seconds(4))
        #expect(await onThread { LoopbackExchange.send(port: port, "GET", "/v1/health")?.status } == 200)
        await host.stop()
    }

    @Test func stopWithSlowConnectionsAndALongPollOpenIsPrompt() async throws {
        let harness = try ServerHarness()
        let token = try await harness.token("alice")
        let cursor = try await harness.changes(token: token).nextCursor
        let host = try MicroHTTPServer(core: harness.server, host: "127.0.0.1", port: 0)
        let sockets = Self.flood(port: host.port, slow: 50, silent: 50)
        let poll = try LoopbackSocket(port: host.port)
        poll.send(
            "GET \(WireRoutes.changes)?since=\(cursor)&wait=30 HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: Bearer \(token)\r\n\r\n")
        try #require(await eventually(timeout: .seconds(10)) { await harness.server.notifier.waiterCount == 1 })
        let started = ContinuousClock.now

        await host.stop()

        #expect(ContinuousClock.now - started < .seconds(3))
        let answer = await onThread { poll.readToEnd(timeout: .seconds(2)).data }
        #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        withExtendedLifetime(sockets) {}
    }
}
